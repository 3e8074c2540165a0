import CairnMerge
import Git

extension Store {
    /// What the policies decided in the store's merges and imports, newest first; with `revision`,
    /// in that commit only. Each record names the document, the value kept and the value
    /// replaced; the replaced value is also in the history of the merge's other parent.
    public func conflicts(at revision: String? = nil) throws(CairnError) -> [(checkpoint: Checkpoint, records: [ConflictRecord])] {
        try translatingErrors("cannot read the conflicts") { () throws -> [(checkpoint: Checkpoint, records: [ConflictRecord])] in
            if let revision {
                let commit = try resolve(revision)
                return [(Checkpoint(commit), conflictRecords(in: commit.message))]
            }
            guard let head = try repository.headCommit() else { return [] }
            var found: [(checkpoint: Checkpoint, records: [ConflictRecord])] = []
            try repository.walkHistory(from: head.id) { commit in
                let records = conflictRecords(in: commit.message)
                if !records.isEmpty { found.append((Checkpoint(commit), records)) }
                return true
            }
            return found
        }
    }

    /// The records a merge message carries as `Cairn-Conflict:` trailers.
    static func conflictRecords(in message: String) -> [ConflictRecord] {
        let prefix = conflictTrailer + ": "
        return message.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(prefix),
                let value = try? JSONParser().parse(Array(line.dropFirst(prefix.count).utf8))
            else { return nil }
            return ConflictRecord(json: value)
        }
    }
}
