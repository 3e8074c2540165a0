import CairnMerge
import Git
import GitFormat

extension Store {
    /// Where each value of the document at `path` comes from, as it is at the checkpoint
    /// `revision` names: one ``ValueProvenance`` per leaf (a scalar, an empty object or
    /// array), in the order of their pointers.
    ///
    /// As `git blame` does for lines: walking the history from `revision`, children before
    /// parents, a value whose parent's version of the document holds the same value at the
    /// same pointer is passed on to that parent (the first such parent of a merge); the
    /// checkpoint where no parent holds it set it. Passing through a merge whose records
    /// decided the value's pointer, or an object above it, notes that decision. Values are
    /// compared as canonical bytes, so a value set again to what it was keeps its older
    /// checkpoint only when nothing changed it in between.
    public func blame(_ path: DocumentPath, at revision: String = "HEAD") throws(CairnError) -> [ValueProvenance] {
        try checkOwned(path)
        let start = try resolve(revision)
        return try translatingErrors("cannot trace \(path) at \(revision)") { () throws -> [ValueProvenance] in
            let file = path.fileName
            guard let startBlob = try repository.blobID(at: file, inCommit: start.id) else {
                throw CairnError(.notFound, "there is no document at \(path) at \(revision)")
            }
            let document = try parseStored(try repository.blobContent(startBlob), file: file, what: "\(file) at \(revision)")
            let leaves = document.leaves
            var found: [String: ValueProvenance] = [:]
            var decisions: [String: ValueProvenance.Decision] = [:]
            // The leaves each commit still has to account for, by their index in `leaves`.
            var waiting: [ObjectID: [Int]] = [start.id: Array(leaves.indices)]
            var parsed: [ObjectID: JSONValue] = [startBlob: document]
            func version(_ blob: ObjectID) throws -> JSONValue {
                if let value = parsed[blob] { return value }
                let value = try parseStored(try repository.blobContent(blob), file: file, what: file)
                parsed[blob] = value
                return value
            }

            try repository.walkHistory(from: start.id) { commit in
                guard let wanted = waiting.removeValue(forKey: commit.id) else { return true }
                let checkpoint = Checkpoint(commit)
                let blob = try repository.blobID(at: file, inCommit: commit.id)
                let here = try blob.map(version)
                // Plain records, and an encrypted store's sealed ones, which its key opens.
                let records = conflictRecords(in: commit.message).filter { $0.document == path }
                let parents = try commit.parentIDs.map { parent in (parent, try repository.blobID(at: file, inCommit: parent)) }
                for index in wanted {
                    let leaf = leaves[index]
                    if decisions[leaf.pointer] == nil, let record = records.first(where: { Self.covers($0.pointer, leaf.pointer) }) {
                        decisions[leaf.pointer] = ValueProvenance.Decision(merge: checkpoint, record: record)
                    }
                    var passed = false
                    for (parent, parentBlob) in parents {
                        guard let parentBlob else { continue }
                        var same = parentBlob == blob
                        if !same {
                            same = JSONValue.same(try version(parentBlob).value(atTokens: leaf.tokens), here?.value(atTokens: leaf.tokens))
                        }
                        if same {
                            waiting[parent, default: []].append(index)
                            passed = true
                            break
                        }
                    }
                    if !passed {
                        found[leaf.pointer] = ValueProvenance(
                            pointer: leaf.pointer, value: leaf.value, checkpoint: checkpoint,
                            decision: decisions[leaf.pointer])
                    }
                }
                return !waiting.isEmpty
            }
            // Every leaf ends at a commit: the walk reaches each one a leaf is passed to, and a
            // leaf no parent holds stays where it is.
            guard found.count == leaves.count else {
                throw CairnError(.corrupt, "the history of \(path) could not be traced for \(leaves.count - found.count) of its values")
            }
            return leaves.compactMap { found[$0.pointer] }
        }
    }

    /// Whether a decision at `decided` covers the value at `pointer`: the same pointer, or an
    /// object or array above it (the whole document for "").
    static func covers(_ decided: String, _ pointer: String) -> Bool {
        decided.isEmpty || decided == pointer || pointer.hasPrefix(decided + "/")
    }
}
