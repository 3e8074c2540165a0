import Git

extension Repository {
    /// The folder's name without `.git`: a server's bare repository is named after whose
    /// progress (or which content item) it holds.
    package var bareName: String {
        var name = FileSystem.lastComponent(of: gitdir.hasSuffix("/") ? String(gitdir.dropLast()) : gitdir)
        if name.hasSuffix(".git") { name.removeLast(4) }
        return name
    }

    /// The user whose progress a server's bare repository holds: its `cairn.uid` (which
    /// `cairn server init` sets), else its ``bareName``.
    package var progressOwner: String {
        ((try? config("cairn.uid")) ?? nil).flatMap { $0.isEmpty ? nil : $0 } ?? bareName
    }
}
