import Synchronization

/// A clock that moves only when told: ``advance(by:)`` runs, in time order and on the calling
/// thread, every action that falls due. For tests of checkpoint and sync schedules.
public final class ManualClock: CheckpointClock {
    private struct Entry {
        var due: Double
        var order: Int
        var handle: ScheduledAction
        var action: @Sendable () -> Void
    }

    private struct State {
        var time: Double
        var pending: [Entry] = []
        var counter = 0
    }

    private let state: Mutex<State>

    public init(now: Double = 0) {
        state = Mutex(State(time: now))
    }

    public func now() -> Double {
        state.withLock { $0.time }
    }

    public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let handle = ScheduledAction()
        state.withLock { state in
            state.counter += 1
            state.pending.append(Entry(due: state.time + max(0, seconds), order: state.counter, handle: handle, action: action))
        }
        return handle
    }

    /// Moves time forward, running each action as its moment comes.
    public func advance(by seconds: Double) {
        let end = state.withLock { $0.time + seconds }
        while let next = takeNext(until: end) {
            next.action()
        }
    }

    /// The next action due by `end`, taken off the list with the time moved to it; nil (and
    /// the time moved to `end`) when none is.
    private func takeNext(until end: Double) -> Entry? {
        state.withLock { state -> Entry? in
            state.pending.removeAll { $0.handle.isCancelled }
            let due = state.pending.filter { $0.due <= end }
            guard let next = due.min(by: { ($0.due, $0.order) < ($1.due, $1.order) }) else {
                state.time = max(state.time, end)
                return nil
            }
            state.pending.removeAll { $0.order == next.order }
            state.time = max(state.time, next.due)
            return next
        }
    }

    /// How many actions wait to run.
    public var scheduledCount: Int {
        state.withLock { state in state.pending.filter { !$0.handle.isCancelled }.count }
    }
}
