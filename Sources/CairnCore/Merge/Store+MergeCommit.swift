import CairnMerge
import Git
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store {
    /// Merges `theirs` into `head` and writes the merge commit (no branch moves yet).
    func mergeCommit(_ head: ObjectID, _ theirs: ObjectID) throws -> (commit: ObjectID, outcome: StoreMerge.Outcome) {
        let context = MergeContext(clock: clock())
        let merge = StoreMerge(repository: repository, schemaSet: try schemaSet(), codec: codec, context: context)
        let outcome = try merge.merge(commit: head, with: theirs)
        let incoming = try repository.aheadBehind(theirs, head).ahead
        let signature = signature()
        var message = try mergeMessage(incoming: incoming, outcome: outcome)
        if let clock = context.clock {
            // What a server (or `cairn verify`) that merges the parents again needs to get the
            // same tree: the clock a stamp from the future was counted against.
            message += (outcome.conflicts.isEmpty ? "\n" : "") + "\(Self.mergeClockTrailer): \(clock)\n"
        }
        let commit = try repository.createCommit(
            tree: outcome.tree, parents: [head, theirs], message: try withDeviceTrailers(message),
            author: signature, committer: signature, updating: nil)
        return (commit, outcome)
    }

    /// The system's clock, in milliseconds since 1970: a device's ``clock`` unless it is set.
    public static func systemClock() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
    }

    /// The trailer that records the merging device's clock, in milliseconds since 1970
    /// (``MergeContext/clock``): `Cairn-Merge-Clock: 1730300000123`.
    static let mergeClockTrailer = "Cairn-Merge-Clock"

    /// The trailer key of a conflict record in a merge commit's message.
    static let conflictTrailer = "Cairn-Conflict"

    /// The merge commit's message: a summary line, the records for people, then one trailer
    /// per record (`Cairn-Conflict: {…}`, the whole record as JSON) for `cairn conflicts`.
    func mergeMessage(incoming: Int, outcome: StoreMerge.Outcome) throws(CairnError) -> String {
        let count = outcome.conflicts.count
        var text = "Sync: merged \(incoming) checkpoint\(incoming == 1 ? "" : "s") from the remote"
        if outcome.mergedDocuments > 0 {
            text +=
                " (\(outcome.mergedDocuments) document\(outcome.mergedDocuments == 1 ? "" : "s") changed on both sides, \(count) conflict\(count == 1 ? "" : "s") decided)"
        }
        text += "\n"
        guard count > 0 else { return text }
        text += "\nDecided by the policies (the replaced values stay in the parents' history):\n"
        let conflicts = try conflictText(outcome.conflicts)
        text += conflicts.lines.map { $0 + "\n" }.joined() + "\n"
        text += conflicts.trailers.map { $0 + "\n" }.joined()
        return text
    }
}
