/// How one side's time grew from a smaller store to a larger one, for the same workload.
struct Growth {
    var workload: String
    var from: Int
    var to: Int
    var cairn: Double
    var peer: Double
    var limit: Double
    var note: String?

    var verdict: String {
        cairn <= limit ? "met" : "**not met**" + (note.map { ": " + $0 } ?? "")
    }
}

extension Growth {
    /// For each checkpoint workload, how its median grew from each measured size to the next.
    static func checkpoints(in comparisons: [Comparison]) -> [Growth] {
        var result: [Growth] = []
        let rows = comparisons.filter { $0.workload.hasPrefix("checkpoint") && $0.peerSide == CheckpointBenchmark.Peer.git.rawValue }
        var seen = Set<String>()
        for row in rows where seen.insert(row.workload + row.cairnSide).inserted {
            let series = rows.filter { $0.workload == row.workload && $0.cairnSide == row.cairnSide }
                .sorted { $0.documents < $1.documents }
            for (small, large) in zip(series, series.dropFirst()) {
                result.append(
                    Growth(
                        workload: "\(row.workload), \(row.cairnSide)", from: small.documents, to: large.documents,
                        cairn: large.cairn.median / small.cairn.median, peer: large.peer.median / small.peer.median,
                        limit: 1.3))
            }
        }
        return result
    }
}
