#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a folder of the repository, for the housekeeping that looks through one: the
/// pack folder, an object folder, the shared parts of a split index.
package enum FolderListing {
    /// The names in the folder at `path` (one pass of `readdir`), without `.` and `..`; empty
    /// when it cannot be opened. Housekeeping only: a folder it cannot list has nothing it
    /// may remove.
    package static func names(atPath path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
