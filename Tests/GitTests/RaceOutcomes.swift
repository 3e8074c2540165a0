import Foundation
import Git

/// What each of two racing moves ended with: nil when it landed, else its error's code.
final class RaceOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [Int: GitError.Code?] = [:]

    func record(_ lane: Int, _ code: GitError.Code?) {
        lock.withLock { found[lane] = .some(code) }
    }

    var codes: [GitError.Code?] {
        lock.withLock { (0..<2).map { found[$0] ?? nil } }
    }
}
