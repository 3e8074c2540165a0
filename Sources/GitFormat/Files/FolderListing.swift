import CairnSystem

/// The names in a folder of the repository, for the housekeeping that looks through one: the
/// pack folder, an object folder, the shared parts of a split index.
package enum FolderListing {
    /// The names in the folder at `path` (one pass of `readdir`), without `.` and `..` (and
    /// names that are not UTF-8, which git never gives what it writes there); nil when it
    /// cannot be listed whole. Housekeeping only: what it cannot list, it leaves.
    package static func names(atPath path: String) -> [String]? {
        try? Syscalls.entries(of: path, followingLink: true).get().map(\.name)
    }
}
