import CGit2

extension Repository {
    /// Compares every file of the working tree with the index, untracked folders included
    /// (`git_status_list_new` with `GIT_STATUS_SHOW_WORKDIR_ONLY`). Its cost grows with the
    /// size of the working tree: it is the explicit scan, not the path of every write.
    public func workingTreeChanges() throws(GitError) -> [WorkingTreeChange] {
        var options = git_status_options()
        try check(
            git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)),
            "git_status_options_init")
        options.show = GIT_STATUS_SHOW_WORKDIR_ONLY
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue
            | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH.rawValue
        var list: OpaquePointer?
        try check(git_status_list_new(&list, handle, &options), "git_status_list_new")
        defer { git_status_list_free(list) }

        var changes: [WorkingTreeChange] = []
        for position in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, position),
                  let delta = entry.pointee.index_to_workdir else { continue }
            let status = entry.pointee.status.rawValue
            let kind: WorkingTreeChange.Kind
            if status & GIT_STATUS_WT_NEW.rawValue != 0 {
                kind = .added
            } else if status & GIT_STATUS_WT_DELETED.rawValue != 0 {
                kind = .deleted
            } else if status & (GIT_STATUS_WT_MODIFIED.rawValue | GIT_STATUS_WT_TYPECHANGE.rawValue) != 0 {
                kind = .modified
            } else {
                continue
            }
            let file = kind == .deleted ? delta.pointee.old_file : delta.pointee.new_file
            changes.append(WorkingTreeChange(path: String(cString: file.path), kind: kind))
        }
        return changes
    }
}
