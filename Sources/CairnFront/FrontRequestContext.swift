import Hummingbird
import Logging
import NIOCore

/// The context of a request to the front: Hummingbird's, with the client's address.
struct FrontRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's IP address, as `REMOTE_ADDR` gives it to the backend.
    let remoteAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "-"
    }

    /// Requests are bounded by the front's own limit, read before the body is.
    var maxUploadSize: Int { .max }
}
