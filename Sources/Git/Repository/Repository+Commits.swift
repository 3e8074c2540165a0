import CGit2
import GitFormat

extension Repository {
    /// The commit HEAD points to, or nil while the branch is unborn (a new repository).
    public func headCommit() throws(GitError) -> Commit? {
        var id = git_oid()
        let result = git_reference_name_to_id(&id, handle, "HEAD")
        if result == GIT_ENOTFOUND.rawValue || result == GIT_EUNBORNBRANCH.rawValue { return nil }
        try check(result, "git_reference_name_to_id")
        return try commit(ObjectID(id))
    }

    /// Reads a commit by id (`git_commit_lookup`).
    public func commit(_ id: ObjectID) throws(GitError) -> Commit {
        try withCommit(id) { (commit) throws(GitError) in Self.describe(commit) }
    }

    /// Resolves a revision as `git rev-parse` does (`HEAD~2`, `main`, a short id) to the
    /// commit it names (`git_revparse_single`, then `git_object_peel`).
    public func resolveCommit(_ revision: String) throws(GitError) -> Commit {
        var object: OpaquePointer?
        try check(git_revparse_single(&object, handle, revision), "git_revparse_single")
        defer { git_object_free(object) }
        var peeled: OpaquePointer?
        try check(git_object_peel(&peeled, object, GIT_OBJECT_COMMIT), "git_object_peel")
        defer { git_object_free(peeled) }
        return Self.describe(peeled!)
    }

    /// Writes a commit of `tree` with `parents`, and moves `reference` (such as `HEAD`) to it
    /// when given (`git_commit_create`). libgit2 refuses the update if the reference moved
    /// away from the first parent meanwhile.
    @discardableResult
    public func createCommit(
        tree treeID: ObjectID,
        parents parentIDs: [ObjectID],
        message: String,
        author: Signature,
        committer: Signature,
        updating reference: String?
    ) throws(GitError) -> ObjectID {
        if pendingPack != nil {
            // Inside `packingWrites`, the commit joins the pack of its trees and blobs: one
            // pack file for the whole checkpoint, and no loose object.
            let bytes = Self.commitBytes(
                tree: treeID, parents: parentIDs, author: author, committer: committer,
                message: message)
            let id = pendingPack!.add(bytes, type: .commit)
            try writePendingObjects()
            if let reference {
                let kind = parentIDs.isEmpty ? " (initial)" : parentIDs.count > 1 ? " (merge)" : ""
                let summary = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
                try setReference(
                    try directReference(reference), to: id, expecting: parentIDs.first,
                    message: "commit\(kind): \(summary)")
            }
            return id
        }
        var tree: OpaquePointer?
        var rawTree = treeID.raw
        try check(git_tree_lookup(&tree, handle, &rawTree), "git_tree_lookup")
        defer { git_tree_free(tree) }

        var parents: [OpaquePointer?] = []
        defer { parents.forEach { git_commit_free($0) } }
        for parentID in parentIDs {
            var parent: OpaquePointer?
            var raw = parentID.raw
            try check(git_commit_lookup(&parent, handle, &raw), "git_commit_lookup")
            parents.append(parent)
        }

        var id = git_oid()
        try author.withSignature { (authorSignature) throws(GitError) in
            try committer.withSignature { (committerSignature) throws(GitError) in
                let result = parents.withUnsafeMutableBufferPointer { buffer in
                    git_commit_create(
                        &id, handle, reference, authorSignature, committerSignature, "UTF-8",
                        message, tree, buffer.count, buffer.baseAddress)
                }
                try check(result, "git_commit_create")
            }
        }
        return ObjectID(id)
    }

    /// A commit object's bytes, as `git_commit_create` writes them: the tree, the parents,
    /// author and committer (`Name <email> seconds ±hhmm`), the encoding, a blank line and the
    /// message as given.
    static func commitBytes(
        tree: ObjectID, parents: [ObjectID], author: Signature, committer: Signature,
        message: String
    ) -> [UInt8] {
        func line(_ role: String, _ signature: Signature) -> String {
            "\(role) \(signature.identityLine)\n"
        }
        var text = "tree \(tree.hex)\n"
        for parent in parents { text += "parent \(parent.hex)\n" }
        text += line("author", author) + line("committer", committer) + "encoding UTF-8\n\n" + message
        return Array(text.utf8)
    }

    /// The direct reference `name` stands for: `HEAD`'s branch when `name` is `HEAD`
    /// (`git_reference_lookup`, `git_reference_symbolic_target`), else `name` itself.
    func directReference(_ name: String) throws(GitError) -> String {
        var reference: OpaquePointer?
        let result = git_reference_lookup(&reference, handle, name)
        if result == GIT_ENOTFOUND.rawValue { return name }
        try check(result, "git_reference_lookup")
        defer { git_reference_free(reference) }
        guard git_reference_type(reference) == GIT_REFERENCE_SYMBOLIC,
            let target = git_reference_symbolic_target(reference)
        else { return name }
        return String(cString: target)
    }

    /// The commits reachable from `start`, newest first in topological order
    /// (`git_revwalk_*`). `body` returns false to stop the walk early.
    public func walkHistory(
        from start: ObjectID,
        _ body: (Commit) throws -> Bool
    ) throws {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, handle), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        try check(
            git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue),
            "git_revwalk_sorting")
        var raw = start.raw
        try check(git_revwalk_push(walk, &raw), "git_revwalk_push")
        var id = git_oid()
        while true {
            let result = git_revwalk_next(&id, walk)
            if result == GIT_ITEROVER.rawValue { return }
            try check(result, "git_revwalk_next")
            guard try body(commit(ObjectID(id))) else { return }
        }
    }

    func withCommit<T>(
        _ id: ObjectID, _ body: (OpaquePointer) throws(GitError) -> T
    ) throws(GitError) -> T {
        var commit: OpaquePointer?
        var raw = id.raw
        try check(git_commit_lookup(&commit, handle, &raw), "git_commit_lookup")
        defer { git_commit_free(commit) }
        return try body(commit!)
    }

    static func describe(_ commit: OpaquePointer) -> Commit {
        let count = git_commit_parentcount(commit)
        return Commit(
            id: ObjectID(git_commit_id(commit).pointee),
            treeID: ObjectID(git_commit_tree_id(commit).pointee),
            parentIDs: (0..<count).map { ObjectID(git_commit_parent_id(commit, $0).pointee) },
            message: String(cString: git_commit_message(commit)),
            author: Signature(git_commit_author(commit)),
            committer: Signature(git_commit_committer(commit)))
    }
}
