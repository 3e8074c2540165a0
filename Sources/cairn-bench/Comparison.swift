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

        /// The most Cairn may take for the target to be met, given the peer's time.
        func budget(peer: Double) -> Double? {
            switch self {
            case .fasterBy(let times): peer / times
            case .atMost(let times): peer * times
            case .none: nil
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
    /// Each side's peak memory in MiB, where both run as whole processes and it was measured.
    var cairnPeak = Samples()
    var peerPeak = Samples()
    /// The server's CPU time in milliseconds per operation, where both sides talk to one.
    var cairnServer = Samples()
    var peerServer = Samples()

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

    /// Measures each side's peak memory in MiB, apart from the timed rounds (a run under GNU
    /// time is not the run a user times), in ``Report/memoryRounds`` rounds taken in turns.
    mutating func measurePeaks(cairn cairnSide: () throws -> Double, peer peerSide: () throws -> Double) rethrows {
        var peaks = (cairn: Samples(), peer: Samples())
        for round in 0..<Report.memoryRounds {
            var turn = Comparison(
                workload: workload, documents: documents, cairnSide: self.cairnSide, peerSide: self.peerSide,
                unit: "MiB", target: .none)
            try turn.measure(round: round, cairn: cairnSide, peer: peerSide)
            peaks.cairn.append(turn.cairn.values[0])
            peaks.peer.append(turn.peer.values[0])
        }
        (cairnPeak, peerPeak) = peaks
    }

    /// Cairn's peak memory as a multiple of the peer's (median over median).
    var memoryRatio: Double { cairnPeak.median / peerPeak.median }
}
