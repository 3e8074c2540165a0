import Synchronization

/// An action a clock will run, until cancelled.
public final class ScheduledAction: Sendable {
    private let cancelled = Atomic(false)

    public init() {}

    /// Keeps the action from running, if it has not yet.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        cancelled.load(ordering: .relaxed)
    }
}
