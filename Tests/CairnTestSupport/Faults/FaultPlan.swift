/// What a ``FaultProxy`` does to the connections of one service, in one direction.
public struct FaultPlan: Sendable, Hashable, CustomStringConvertible {
    /// Which git service a connection is for, from its first request line.
    public enum Service: String, Sendable, Hashable, CaseIterable {
        /// `git-upload-pack`: a fetch (or a clone).
        case fetch
        /// `git-receive-pack`: a push.
        case push
    }

    /// Which way the bytes go.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// From the client to the server: requests, and a push's pack.
        case toServer
        /// From the server to the client: advertisements, a fetch's pack, a push's report.
        case toClient
    }

    /// What happens to the bytes.
    public enum Fault: Sendable, Hashable {
        /// Nothing: every byte goes through.
        case none
        /// Close both sides once ``FaultPlan/offset`` bytes went through.
        case cut
        /// Forward nothing more, either way, once ``FaultPlan/offset`` bytes went through;
        /// the sockets stay open.
        case stall
        /// Hold every chunk this many milliseconds before forwarding it.
        case delay(milliseconds: Int)
    }

    public var fault: Fault
    public var service: Service
    public var direction: Direction
    /// For a cut or a stall: how many bytes of this service and direction go through first,
    /// counted over all its connections.
    public var offset: Int
    /// How many requests of this service pass untouched first; ``offset`` counts from the
    /// start of the next one (a sync that pushes first, is refused and pushes again after
    /// its fetch: 1 aims at the second push).
    public var afterRequests: Int

    public init(_ fault: Fault, _ service: Service, _ direction: Direction, offset: Int = 0, afterRequests: Int = 0) {
        self.fault = fault
        self.service = service
        self.direction = direction
        self.offset = offset
        self.afterRequests = afterRequests
    }

    /// Every byte goes through.
    public static let none = FaultPlan(.none, .fetch, .toClient)

    public var description: String {
        let after = afterRequests == 0 ? "" : " after \(afterRequests) request\(afterRequests == 1 ? "" : "s")"
        return switch fault {
        case .none: "no fault"
        case .cut: "cut \(service) \(direction) at byte \(offset)\(after)"
        case .stall: "stall \(service) \(direction) at byte \(offset)\(after)"
        case .delay(let milliseconds): "delay \(service) \(direction) \(milliseconds) ms a chunk\(after)"
        }
    }
}
