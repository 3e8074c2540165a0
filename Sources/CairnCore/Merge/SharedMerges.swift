import Synchronization

/// The documents the two threads of ``RepositoryMergeSource/merging(_:_:)`` share: which
/// comes next, and what became of each. Once one fails, no more are handed out.
final class SharedMerges<Merged: Sendable>: Sendable {
    enum Outcome {
        case merged(Merged)
        case failed(any Error, byTheStoresHandle: Bool)
    }

    private struct State {
        var next = 0
        var failed = false
        var outcomes: [Outcome?]
    }

    private let state: Mutex<State>
    private let count: Int

    init(count: Int) {
        self.count = count
        state = Mutex(State(outcomes: Array(repeating: nil, count: count)))
    }

    /// The next `turn` positions, or nil when none are left or one failed.
    func next(_ turn: Int) -> Range<Int>? {
        state.withLock { state in
            guard !state.failed, state.next < count else { return nil }
            let start = state.next
            state.next = min(count, start + turn)
            return start..<state.next
        }
    }

    func record(_ position: Int, _ outcome: sending Outcome) {
        state.withLock { state in
            if case .failed = outcome { state.failed = true }
            state.outcomes[position] = outcome
        }
    }

    /// What became of each position (nil: nobody reached it), once both threads ended.
    func outcomes() -> [Outcome?] {
        state.withLock { $0.outcomes }
    }
}
