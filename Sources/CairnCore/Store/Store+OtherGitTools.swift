import CairnMerge
import CairnSystem
import Git
import GitFormat

extension Store {
    /// What Cairn last left: `.git/cairn/seen` holds the branch's commit and the stamp of the
    /// index file after Cairn's last checkpoint or move of the working tree.
    var seenPath: String { repository.gitdir + StoreLayout.seenFile }

    /// Notes the branch's commit and the index file as they are now, Cairn having just
    /// written them. A hint, not a record: when it is lost, the next checkpoint compares the
    /// whole working tree once.
    func noteWhatCairnLeft() {
        guard let marks = try? currentMarks() else { return }
        // A checkpoint or sync with nothing to do leaves the note as it is: no write.
        if let noted = try? FileSystem.read(seenPath), noted.elementsEqual(marks.utf8) { return }
        try? FileSystem.writeAtomically(Array(marks.utf8), to: seenPath)
    }

    /// Whether another git tool changed the store since Cairn last wrote it: a commit, reset
    /// or amend moved the branch, or a stash, checkout, `git add` or `update-index` rewrote
    /// the index. What those leave in the working tree differs from the last checkpoint in
    /// ways the store did not record, so the next checkpoint compares every file. A store
    /// that has no note yet (made by an older Cairn) counts as unchanged.
    func changedByOtherGitTools() throws -> Bool {
        guard let bytes = try FileSystem.read(seenPath) else { return false }
        return String(decoding: bytes, as: UTF8.self) != (try currentMarks())
    }

    private func currentMarks() throws -> String {
        let head = try repository.reference(branchReference)?.hex ?? "-"
        let index =
            FileStamp(path: repository.gitdir + "index").map {
                "\($0.device) \($0.inode) \($0.size) \($0.modified.seconds).\($0.modified.nanoseconds) \($0.changed.seconds).\($0.changed.nanoseconds)"
            } ?? "-"
        return "\(head) \(index)\n"
    }

    /// The files that differ between the commit Cairn last left (its note) and the branch
    /// now: what another git tool committed, pulled or reset the branch to, whose derived
    /// fields and counts nobody computed. Every file of the branch when the commit noted is
    /// gone or cannot be compared; none when the branch did not move or there is no note.
    func committedByOtherGitTools() throws -> [String] {
        guard let bytes = try FileSystem.read(seenPath),
            let noted = String(decoding: bytes, as: UTF8.self).split(separator: " ").first,
            let head = try repository.reference(branchReference), noted != head.hex
        else { return [] }
        let tree = try repository.commit(head).treeID
        if let before = ObjectID(hex: String(noted)), let old = try? repository.commit(before).treeID,
            let moved = try? repository.differences(among: [old, tree])
        {
            return moved.map(\.path)
        }
        return try repository.differences(among: [tree, nil]).map(\.path)
    }
}
