import CGit2
import GitFormat

extension Repository {
    /// The commit a reference points to (`refs/heads/main`, `refs/remotes/origin/main`,
    /// `HEAD`), or nil when it does not exist or is unborn (`git_reference_name_to_id`).
    public func reference(_ name: String) throws(GitError) -> ObjectID? {
        var id = git_oid()
        let result = git_reference_name_to_id(&id, handle, name)
        if result == GIT_ENOTFOUND.rawValue || result == GIT_EUNBORNBRANCH.rawValue { return nil }
        try check(result, "git_reference_name_to_id")
        return ObjectID(id)
    }

    /// Every reference under `refs/` and the object it names (`git_reference_list`); a
    /// symbolic one is left out, as `git for-each-ref` shows it under its target.
    public func references() throws(GitError) -> [String: ObjectID] {
        var names = git_strarray()
        try check(git_reference_list(&names, handle), "git_reference_list")
        defer { git_strarray_dispose(&names) }
        var found: [String: ObjectID] = [:]
        for index in 0..<names.count {
            guard let pointer = names.strings[index] else { continue }
            let name = String(cString: pointer)
            guard name.hasPrefix("refs/") else { continue }
            var reference: OpaquePointer?
            guard git_reference_lookup(&reference, handle, name) == 0 else { continue }
            defer { git_reference_free(reference) }
            if git_reference_type(reference) == GIT_REFERENCE_DIRECT, let id = git_reference_target(reference) {
                found[name] = ObjectID(id.pointee)
            }
        }
        return found
    }

    /// Where `HEAD` points: a branch, or a commit when it is detached (`git_reference_lookup`).
    public func headTarget() throws(GitError) -> HeadTarget {
        var reference: OpaquePointer?
        try check(git_reference_lookup(&reference, handle, "HEAD"), "git_reference_lookup")
        defer { git_reference_free(reference) }
        if git_reference_type(reference) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(reference) {
            return .branch(String(cString: target))
        }
        guard let id = git_reference_target(reference) else {
            throw failure(.generic, "HEAD is neither a branch nor a commit", "git_reference_target")
        }
        return .detached(ObjectID(id.pointee))
    }

    /// Points the direct reference `name` (under `refs/`) at `id`, only if it still points to
    /// `expected` (nil: only if it does not exist yet) — a compare-and-swap under the reference's lock file,
    /// as `git_reference_create_matching` does it. Throws `.modified` when it moved meanwhile,
    /// `.exists` when it exists and `expected` is nil, `.locked` when another git process
    /// holds its lock.
    ///
    /// Written by ``LooseReference`` rather than libgit2, which fsyncs the reflogs and their
    /// folders too: four of a checkpoint's eleven fsyncs. The reflog lines are libgit2's
    /// (``reflogEntry(for:message:)``); the reference is as durable as before.
    public func setReference(
        _ name: String, to id: ObjectID, expecting expected: ObjectID?,
        message: String
    ) throws(GitError) {
        var valid: Int32 = 0
        try check(git_reference_name_is_valid(&valid, name), "git_reference_name_is_valid")
        guard valid == 1, name.hasPrefix("refs/") else {
            throw failure(.invalidSpec, "'\(name)' is not a valid reference name", "git_reference_name_is_valid")
        }
        let log = try reflogEntry(for: name, message: message)
        try converting { () throws(GitFormatError) in
            try LooseReference(gitdir: gitdir, name: name).update(to: id, expecting: expected, log: log)
        }
    }

    /// The reflog line a move of `name` gets, as libgit2 decides it: none when
    /// `core.logAllRefUpdates` is false (unset: false in a bare repository); with `true`, for a
    /// reference that has a reflog or lives under `refs/heads/`, `refs/remotes/` or
    /// `refs/notes/`; with `always`, for every reference. The identity is `user.name` and
    /// `user.email` at the current time (`git_signature_default`), else `unknown`.
    func reflogEntry(for name: String, message: String) throws(GitError) -> LooseReference.ReflogEntry? {
        // nil: no reference is logged; false: those of the usual prefixes, or with a
        // reflog already; true: all. The value is read as libgit2 reads it: `always`, else
        // a boolean (`git_config_get_bool`: yes, on, 1, an empty value false, ...).
        let logsEveryReference: Bool?
        switch try logAllRefUpdates() {
        case nil: logsEveryReference = git_repository_is_bare(handle) == 0 ? false : nil
        case .always: logsEveryReference = true
        case .flag(let on): logsEveryReference = on ? false : nil
        }
        guard let logsEveryReference else { return nil }
        let usuallyLogged = ["refs/heads/", "refs/remotes/", "refs/notes/"].contains { name.hasPrefix($0) } || name == "HEAD"
        guard logsEveryReference || usuallyLogged || LooseReference.exists(gitdir + "logs/" + name) else { return nil }
        var signature: UnsafeMutablePointer<git_signature>?
        if git_signature_default(&signature, handle) < 0 {
            try check(git_signature_now(&signature, "unknown", "unknown"), "git_signature_now")
        }
        defer { git_signature_free(signature) }
        let who = Signature(signature!)
        let head: LooseReference.Value?
        do {
            head = try LooseReference(gitdir: gitdir, name: "HEAD").value()
        } catch {
            throw GitError(error)
        }
        return LooseReference.ReflogEntry(identity: who.identityLine, message: message, logsHead: head == .symbolic(name))
    }

    /// How `core.logAllRefUpdates` is set, read from one snapshot of the configuration as
    /// libgit2 reads it; nil when it is not set.
    private func logAllRefUpdates() throws(GitError) -> LogAllRefUpdates? {
        var snapshot: OpaquePointer?
        try check(git_repository_config_snapshot(&snapshot, handle), "git_repository_config_snapshot")
        defer { git_config_free(snapshot) }
        var text: UnsafePointer<CChar>?
        let found = git_config_get_string(&text, snapshot, "core.logallrefupdates")
        if found == GIT_ENOTFOUND.rawValue { return nil }
        try check(found, "git_config_get_string")
        if let text, String(cString: text).lowercased() == "always" { return .always }
        var value: Int32 = 0
        try check(git_config_get_bool(&value, snapshot, "core.logallrefupdates"), "git_config_get_bool")
        return .flag(value != 0)
    }

    /// The values of `core.logAllRefUpdates`.
    private enum LogAllRefUpdates {
        case always
        case flag(Bool)
    }

    /// Removes a reference if it exists (`git_reference_remove`).
    public func removeReference(_ name: String) throws(GitError) {
        let result = git_reference_remove(handle, name)
        if result == GIT_ENOTFOUND.rawValue { return }
        try check(result, "git_reference_remove")
    }

    /// The best common ancestors of two commits: one, or several after criss-cross merges,
    /// or none for unrelated histories (`git_merge_bases`). Sorted by id, so the order never
    /// depends on which side asks.
    public func mergeBases(_ one: ObjectID, _ two: ObjectID) throws(GitError) -> [ObjectID] {
        var found = git_oidarray()
        var (a, b) = (one.raw, two.raw)
        let result = git_merge_bases(&found, handle, &a, &b)
        if result == GIT_ENOTFOUND.rawValue { return [] }
        try check(result, "git_merge_bases")
        defer { git_oidarray_dispose(&found) }
        return (0..<found.count).map { ObjectID(found.ids[$0]) }.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    /// Whether `descendant` has `ancestor` in its history (a commit is not its own
    /// descendant) (`git_graph_descendant_of`).
    public func isDescendant(_ descendant: ObjectID, of ancestor: ObjectID) throws(GitError) -> Bool {
        var (a, b) = (descendant.raw, ancestor.raw)
        return try check(git_graph_descendant_of(handle, &a, &b), "git_graph_descendant_of") == 1
    }

    /// How many commits `local` has that `upstream` lacks, and the other way round
    /// (`git_graph_ahead_behind`).
    public func aheadBehind(_ local: ObjectID, _ upstream: ObjectID) throws(GitError) -> (ahead: Int, behind: Int) {
        var ahead = 0, behind = 0
        var (a, b) = (local.raw, upstream.raw)
        try check(git_graph_ahead_behind(&ahead, &behind, handle, &a, &b), "git_graph_ahead_behind")
        return (ahead, behind)
    }

    /// The commits reachable from `tip` but not from `hidden` (the new commits of a push or
    /// a fetch), oldest first (`git_revwalk_push`, `git_revwalk_hide`).
    public func commits(from tip: ObjectID, hiding hidden: [ObjectID]) throws(GitError) -> [ObjectID] {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, handle), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        try check(
            git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue),
            "git_revwalk_sorting")
        var raw = tip.raw
        try check(git_revwalk_push(walk, &raw), "git_revwalk_push")
        for id in hidden {
            var hide = id.raw
            try check(git_revwalk_hide(walk, &hide), "git_revwalk_hide")
        }
        var found: [ObjectID] = []
        var id = git_oid()
        while true {
            let result = git_revwalk_next(&id, walk)
            if result == GIT_ITEROVER.rawValue { return found }
            try check(result, "git_revwalk_next")
            found.append(ObjectID(id))
        }
    }
}
