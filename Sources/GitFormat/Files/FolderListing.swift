#if canImport(Glibc)
import Glibc
#endif

/// The names in a folder of the repository, for the housekeeping that looks through one: the
/// pack folder, an object folder, the shared parts of a split index.
package enum FolderListing {
    /// The names in the folder at `path` (one pass of `readdir`), without `.` and `..`; nil
    /// when it cannot be listed whole. Housekeeping only: what it cannot list, it leaves.
    package static func names(atPath path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else { return errno == 0 ? names : nil }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
    }
}
