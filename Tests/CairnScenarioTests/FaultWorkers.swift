import CairnTestSupport
import Foundation

/// Runs jobs two at a time on threads of their own, in a given order.
///
/// The jobs block for minutes on the programs they run. On Swift concurrency's threads (one
/// per core) they would hold every one of them, and the suites beside the harness would stall
/// for as long; the harness's own suite blocks one thread while it waits, as any test does.
final class FaultWorkers<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let order: [Int]
    private var next = 0
    private var results: [Int: Result<T, any Error>] = [:]

    private init(_ order: [Int]) {
        self.order = order
    }

    /// Runs `work` on each index of `order` (each index once, from 0), two at a time, in that
    /// order, and returns the results by index; the first error, by index, is thrown.
    static func run(_ order: [Int], _ work: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let workers = FaultWorkers(order)
        let group = DispatchGroup()
        for _ in 0..<min(2, order.count) {
            group.enter()
            Thread {
                while let index = workers.take() {
                    workers.store(index, Result { try work(index) })
                }
                group.leave()
            }.start()
        }
        group.wait()
        return try order.indices.map { index in try workers.lock.withLock { workers.results[index]! }.get() }
    }

    private func take() -> Int? {
        lock.withLock {
            guard next < order.count else { return nil }
            next += 1
            return order[next - 1]
        }
    }

    private func store(_ index: Int, _ result: Result<T, any Error>) {
        lock.withLock { results[index] = result }
    }
}
