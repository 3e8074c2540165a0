import CGit2
import GitFormat

extension ObjectType {
    /// The type as libgit2's `git_object_t` (the numbers are the same).
    var raw: git_object_t {
        git_object_t(rawValue: Int32(rawValue))
    }
}
