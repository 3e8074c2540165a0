import CairnTestSupport

/// What the fault harness found for one scenario: the points it reached by call kind, how
/// the commands ended, and what went wrong.
struct FaultTally: Sendable {
    let scenario: String
    /// Fault points that took effect (the process was killed, or the call failed), by call.
    var points: [String: Int] = [:]
    /// Points the run never reached (it made fewer calls of the kind this time).
    var unreached = 0
    /// For injected errors: commands that exited non-zero with one clear line.
    var failedClearly = 0
    /// For injected errors: commands that exited 0 with their work fully done (the call's
    /// failure was retried, or only cut the output short).
    var succeeded = 0
    /// For injected errors: the points where the command exited 0 anyway.
    var succeededAt: [String] = []
    /// For injected errors: the line each failed command wrote, with the site's path cut out.
    var messages: [String] = []
    /// Points after which a document whose command had succeeded was missing or damaged,
    /// or the one in flight was neither its old nor its new content.
    var losses = 0
    /// Every broken promise, each naming the point: lost documents, a failed fsck, a HEAD
    /// that is neither commit, an unclear message, a retry that failed.
    var problems: [String] = []

    /// How long the scenario took, its template included (for the figures; nothing is timed).
    var seconds = 0.0

    var total: Int { points.values.reduce(0, +) }

    /// `put (new document): 9 points (write 2, pwrite64 2, …), 0 losses`.
    var summary: String {
        let kinds = points.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return
            "\(scenario): \(total) points (\(kinds)), \(unreached) not reached, \(losses) losses, \(problems.count) problems, \(Int(seconds.rounded())) s"
    }
}
