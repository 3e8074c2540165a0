import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The machine's clock: actions run on a global dispatch queue.
public struct SystemClock: CheckpointClock {
    public init() {}

    public func now() -> Double { Date().timeIntervalSince1970 }

    public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let handle = ScheduledAction()
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) {
            if !handle.isCancelled { action() }
        }
        return handle
    }
}
