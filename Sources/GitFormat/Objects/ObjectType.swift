/// The kinds of git object Cairn writes itself, with the numbers a pack gives them (the same
/// as libgit2's `git_object_t`).
package enum ObjectType: UInt8, Sendable {
    case commit = 1
    case tree = 2
    case blob = 3
    case tag = 4

    /// The name git writes in an object's header and prints (`blob`, `tree`, …).
    package var name: String {
        switch self {
        case .commit: "commit"
        case .tree: "tree"
        case .blob: "blob"
        case .tag: "tag"
        }
    }

    /// The header git puts before an object's content, both to hash it and to store it
    /// loose: `<type> <size>\0`.
    package func header(size: Int) -> [UInt8] {
        Array("\(name) \(size)\0".utf8)
    }
}
