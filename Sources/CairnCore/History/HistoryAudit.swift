import CairnMerge
import Git
import GitFormat

/// The audit of a history, `cairn verify`: every commit of a range checked against its parent
/// by the rules a server applies to a push (``PushRules``: what a store may hold, documents
/// valid under the schema set of the commit's tree, append-only documents never changed or
/// deleted but by retention, derived fields as the schema computes them), and every merge
/// commit merged again from its parents (``MergeAttestation``). It writes no reference and
/// changes no file: the objects a merge made again are written as a merge writes them,
/// and nothing points to them.
///
/// Works on a store (with its codec: an encrypted store's documents are opened with its key)
/// and on a server's bare repository (without one: an encrypted store's documents are
/// checked as sealed, its merges not at all, since they cannot be read).
package struct HistoryAudit {
    let repository: Repository
    let uid: String
    /// The codec of the documents; nil for a repository whose store may be encrypted and
    /// whose key is not at hand (a server's).
    let codec: DocumentCodec?

    package init(repository: Repository, uid: String, codec: DocumentCodec?) {
        self.repository = repository
        self.uid = uid
        self.codec = codec
    }

    /// The commits of `range` — `A..B` (reachable from B, not from A), or one revision and all
    /// that leads to it — oldest first.
    package func commits(in range: String) throws(CairnError) -> [ObjectID] {
        let parts = range.split(separator: "..", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, !parts.contains(where: \.isEmpty) || parts.count == 1 else {
            throw CairnError(.invalidInput, "invalid range \"\(range)\": give a revision (HEAD, an id) or two joined by .. (HEAD~10..HEAD)")
        }
        let tip = try commitID(parts.last!)
        let hidden = try parts.count == 2 ? [commitID(parts[0])] : []
        do {
            return try repository.commits(from: tip, hiding: hidden)
        } catch {
            throw CairnError.git(error, doing: "cannot walk \(range)")
        }
    }

    private func commitID(_ revision: String) throws(CairnError) -> ObjectID {
        do {
            return try repository.resolveCommit(revision).id
        } catch {
            if error.isDamage { throw CairnError.damaged(error, doing: "cannot read \(revision)") }
            throw CairnError(.notFound, "unknown revision \"\(revision)\": \(error.message)", cause: error)
        }
    }

    /// The audit of each commit of `commits`, in their order; `checked` is told each commit
    /// as it is done. What cannot be checked at a commit (a schema set that does not read, a
    /// document a merge cannot parse) is a finding of that commit, and the audit goes on; an
    /// object that cannot be read at all stops it (a damaged repository, one line). What the
    /// audit cannot judge — documents sealed with a key it lacks, an encrypted store's merges
    /// without its key — is a gap, not a finding.
    package func audit(of commits: [ObjectID], checked: (Int) -> Void = { _ in }) throws(CairnError) -> HistoryAuditResult {
        let rules = PushRules.audit(repository, uid: uid, codec: codec)
        var findings: [AuditFinding] = []
        var gaps: [String: [CheckpointID]] = [:]
        var reasons: [String] = []
        func gap(_ reason: String, _ id: ObjectID) {
            if gaps[reason] == nil { reasons.append(reason) }
            gaps[reason, default: []].append(CheckpointID(id))
        }
        for (index, id) in commits.enumerated() {
            do {
                let commit = try repository.commit(id)
                // A merge adds nothing of its own: it is right when it is what the policies
                // give from its parents. Without the key, an encrypted store's cannot be merged
                // again: it is checked as any commit, and named as not judged.
                let mergeCodec: DocumentCodec? = try codec ?? (rules.marksEncrypted(commit.treeID) ? nil : .plain)
                if commit.parentIDs.count >= 2, let mergeCodec {
                    if let refusal = try MergeAttestation(repository: repository, codec: mergeCodec).refusal(of: commit) {
                        findings.append(AuditFinding(commit: CheckpointID(id), message: refusal))
                    }
                } else {
                    if commit.parentIDs.count >= 2 {
                        gap(
                            "merges of an encrypted store, which only its key merges again (the rules a server holds it to were checked)",
                            id)
                    }
                    for refusal in try rules.refusals(updating: "refs/heads/" + Store.branch, from: commit.parentIDs.first, to: id) {
                        // The rules name the commit themselves when the tree is at fault.
                        let prefix = "commit \(id.short): "
                        findings.append(
                            AuditFinding(
                                commit: CheckpointID(id),
                                message: refusal.hasPrefix(prefix) ? String(refusal.dropFirst(prefix.count)) : refusal))
                    }
                }
            } catch let error as CairnError where error.missingStoreKey != nil {
                let known = codec?.cipher?.keyring.keys.map(\.id.description).joined(separator: ", ") ?? "none"
                gap("their documents are sealed with key \(error.missingStoreKey!), which is not among the keys given (\(known))", id)
            } catch let error as CairnError where error.remedy != .repair {
                findings.append(AuditFinding(commit: CheckpointID(id), message: "cannot be checked: \(error.message)"))
            } catch let error as CairnError {
                throw CairnError(error.code, "commit \(id.short): \(error.message)", remedy: error.remedy, cause: error)
            } catch let error as GitError {
                if error.isDamage { throw CairnError.damaged(error, doing: "cannot verify commit \(id.short)") }
                throw CairnError.git(error, doing: "cannot verify commit \(id.short)")
            } catch {
                throw CairnError(.io, "cannot verify commit \(id.short): \(error)")
            }
            checked(index + 1)
        }
        return HistoryAuditResult(
            commits: commits.count, findings: findings,
            gaps: reasons.map { AuditGap(reason: $0, commits: gaps[$0]!) })
    }
}
