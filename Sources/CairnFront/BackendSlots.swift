/// At most `limit` `git http-backend` processes at once: a request waits its turn for a
/// bounded time, first come first served, then gives up (the server answers 503 and the
/// device tries again later).
actor BackendSlots {
    let limit: Int
    private(set) var running = 0
    private var waiting: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a slot, waiting at most `timeout` seconds; false when none came free in time.
    func acquire(timeout: Double) async -> Bool {
        if running < limit, waiting.isEmpty {
            running += 1
            return true
        }
        let id = nextID
        nextID += 1
        return await withCheckedContinuation { continuation in
            waiting.append((id, continuation))
            Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
                await self?.giveUp(id)
            }
        }
    }

    /// Gives a slot back: to the longest waiting request, if any.
    func release() {
        if !waiting.isEmpty {
            waiting.removeFirst().continuation.resume(returning: true)
        } else {
            running -= 1
        }
    }

    private func giveUp(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: false)
    }
}
