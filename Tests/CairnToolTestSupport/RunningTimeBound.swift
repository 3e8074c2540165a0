import Dispatch
import Foundation
import Testing

/// A bound on the time a test takes from the moment its body starts running: a test over
/// the network that runs past it fails, and a note goes to stderr when it passes the bound
/// while still running (the place to look when a transfer hangs).
///
/// Swift Testing's own `.timeLimit` counts from the moment the test is scheduled: its body
/// is a new task that waits for a free thread, and on a machine of two cores both threads
/// are often held by tests that wait on programs and servers, so a test could spend its
/// whole limit queued and fail without having run. This bound never counts that wait.
package struct RunningTimeBound: TestTrait, SuiteTrait, TestScoping {
    package let limit: Duration

    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds nothing to time; each of its tests is timed on its own.
        guard testCase != nil else {
            try await function()
            return
        }
        let seconds = Double(limit.components.seconds)
        let name = test.name
        let note = DispatchWorkItem {
            FileHandle.standardError.write(Data("\(name) still runs after \(Int(seconds)) s, its bound\n".utf8))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: note)
        defer { note.cancel() }
        let started = ContinuousClock.now
        // Checked on the way out, whether the body returned or threw.
        defer {
            let took = ContinuousClock.now - started
            if took > limit {
                Issue.record(
                    "\(name) ran for \(took.formatted(.units(allowed: [.seconds]))), past its bound of \(Int(seconds)) s",
                    sourceLocation: test.sourceLocation)
            }
        }
        try await function()
    }
}

extension Trait where Self == RunningTimeBound {
    /// Fails the test when its body runs longer than `limit` (time spent waiting to be
    /// scheduled not counted).
    package static func runningTime(atMost limit: Duration) -> Self {
        RunningTimeBound(limit: limit)
    }
}
