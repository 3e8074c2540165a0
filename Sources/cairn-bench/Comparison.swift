/// One workload timed on Cairn and on its peer in the same run, the two alternating round by
/// round, with the goal Cairn is held to.
struct Comparison {
    /// What Cairn must reach, as a ratio of the medians.
    enum Target {
        /// The peer's time divided by Cairn's is at least this.
        case fasterBy(Double)
        /// Cairn's time is at most this many times the peer's.
        case atMost(Double)
        /// Shown for information, with no goal.
        case none

        var text: String {
            switch self {
            case .fasterBy(let times): "≥ \(Samples.format(times))× faster"
            case .atMost(1): "≤ peer"
            case .atMost(let times): "≤ \(Samples.format(times))× peer"
            case .none: "–"
            }
        }

        func isMet(speedup: Double) -> Bool? {
            switch self {
            case .fasterBy(let times): speedup >= times
            case .atMost(let times): 1 / speedup <= times
            case .none: nil
            }
        }
    }

    var workload: String
    var documents: Int
    var cairnSide: String
    var peerSide: String
    /// The unit of both samples: "ms" for a whole operation, "µs" for one call.
    var unit: String
    var cairn = Samples()
    var peer = Samples()
    var target: Target
    /// Why the target is out of reach, when it is; said next to the figure.
    var note: String?

    /// How many times faster Cairn was: the peer's median over Cairn's.
    var speedup: Double { peer.median / cairn.median }

    var verdict: String {
        switch target.isMet(speedup: speedup) {
        case true?: "met"
        case false?: "**not met**" + (note.map { ": " + $0 } ?? "")
        case nil: note ?? ""
        }
    }

    /// Times both sides once, Cairn first in even rounds and the peer first in odd ones, so
    /// that neither always runs on a machine the other just warmed or loaded.
    mutating func measure(round: Int, cairn cairnSide: () throws -> Double, peer peerSide: () throws -> Double) rethrows {
        if round % 2 == 0 {
            cairn.append(try cairnSide())
            peer.append(try peerSide())
        } else {
            peer.append(try peerSide())
            cairn.append(try cairnSide())
        }
    }
}
