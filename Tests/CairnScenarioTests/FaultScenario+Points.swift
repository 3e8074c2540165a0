import CairnMerge
import Foundation

extension FaultScenario {
    /// Whether the crash-point harness tries every point: `CAIRN_FAULT_POINTS=all`, which CI
    /// sets. Else it tries the points `crashPoints(of:seed:)` keeps.
    static var triesEveryPoint: Bool {
        ProcessInfo.processInfo.environment["CAIRN_FAULT_POINTS"] == "all"
    }

    /// How many points of one kind of call a scenario keeps whole; past it, the first and last
    /// few and a seeded few between.
    static let pointsKeptWhole = 12

    /// The crash points a run tries, in their order: every point of a kind of call the command
    /// makes at most `pointsKeptWhole` times, and of a kind it makes more often (the chunks of
    /// a pack written with `pwrite64`, a merge's many files) the first four, the last four and
    /// four between, chosen by the seed. What differs among the points of a long run of one
    /// call is its start (nothing of the file there yet), its end (the file whole, the rename
    /// not yet made) and the order around it, which those keep; the chunks between are alike.
    /// Another seed chooses other chunks, and `CAIRN_FAULT_POINTS=all` tries every one.
    static func crashPoints(of points: [SyscallTracer.Fault], seed: UInt64) -> [SyscallTracer.Fault] {
        if triesEveryPoint { return points }
        var kept: [SyscallTracer.Fault] = []
        var calls: [String] = []
        for point in points where !calls.contains(point.call) { calls.append(point.call) }
        for call in calls {
            let ofCall = points.filter { $0.call == call }
            guard ofCall.count > pointsKeptWhole else {
                kept += ofCall
                continue
            }
            var random = SplitMix(seed: seed ^ UInt64(ofCall.count) ^ call.utf8.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) })
            var between = Array(ofCall[4..<(ofCall.count - 4)])
            between.shuffle(using: &random)
            let chosen = Set(between.prefix(4).map(\.occurrence))
            kept += ofCall.enumerated().filter { index, point in
                index < 4 || index >= ofCall.count - 4 || chosen.contains(point.occurrence)
            }.map(\.element)
        }
        return kept
    }
}
