import Logging

/// The one log line of a request: its id, the user, the route, the status and the time —
/// and, for a refusal, its reason. Never the token, nor anything of the Authorization header.
struct RequestLine: Sendable {
    var id: String
    var uid: String = "-"
    var route: String = "other"
    var method: String

    func log(_ logger: Logger, status: Int, seconds: Double, reason: String? = nil, extra: Logger.Metadata = [:]) {
        var metadata: Logger.Metadata = [
            "request": "\(id)", "uid": "\(uid)", "route": "\(route)", "method": "\(method)", "status": "\(status)",
            "ms": "\(Int((seconds * 1000).rounded()))",
        ]
        if let reason { metadata["reason"] = "\(reason)" }
        metadata.merge(extra) { $1 }
        logger.info("request", metadata: metadata)
    }
}
