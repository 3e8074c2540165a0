/// What a ``FaultProxy`` carried since its plan was armed.
public struct FaultProxyTraffic: Sendable, Hashable {
    /// One service, one direction.
    public struct Stream: Sendable, Hashable {
        public var service: FaultPlan.Service
        public var direction: FaultPlan.Direction
        public init(service: FaultPlan.Service, direction: FaultPlan.Direction) {
            self.service = service
            self.direction = direction
        }
    }

    /// Bytes forwarded per service and direction (a cut or stalled chunk counts the bytes
    /// that went through).
    public var bytes: [Stream: Int] = [:]
    /// Connections, by the service of their first request.
    public var connections: [FaultPlan.Service: Int] = [:]
    /// Requests per service, whichever connection carried them.
    public var requests: [FaultPlan.Service: Int] = [:]
    /// The first line of each request, in order (`POST /u1.git/git-receive-pack HTTP/1.1`).
    public var requestLines: [String] = []
    /// Whether the plan's cut or stall happened.
    public var faulted = false

    public init() {}

    /// Connections made, whatever they carried.
    public var connectionCount: Int { connections.values.reduce(0, +) }

    /// The requests that sent data to `service` (its `POST`s): a fetch's wants, a push's
    /// commands and pack.
    public func posts(_ service: FaultPlan.Service) -> Int {
        let path = service == .push ? "/git-receive-pack " : "/git-upload-pack "
        return requestLines.filter { $0.hasPrefix("POST ") && $0.contains(path) }.count
    }

    /// Bytes forwarded for `service` in `direction`.
    public func bytes(_ service: FaultPlan.Service, _ direction: FaultPlan.Direction) -> Int {
        bytes[Stream(service: service, direction: direction), default: 0]
    }
}
