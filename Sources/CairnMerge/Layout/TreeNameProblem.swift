/// Why one name of a tree entry cannot be in a store's tree.
public enum TreeNameProblem: Sendable, Hashable, CustomStringConvertible {
    case empty
    case notUTF8
    /// `.` or `..`.
    case dotName(String)
    /// A tree entry's name never holds '/': one that does would reach other folders.
    case slash
    case backslash
    /// A name some file system takes for `.git` (`DocumentID/namesGitFolder(_:)`).
    case gitFolder(String)

    /// The problem in `name`, or nil when it can be a name of a store's tree.
    public init?(_ name: [UInt8]) {
        guard !name.isEmpty else {
            self = .empty
            return
        }
        guard let text = String(validating: name, as: UTF8.self) else {
            self = .notUTF8
            return
        }
        if text == "." || text == ".." {
            self = .dotName(text)
        } else if name.contains(0x2F) {
            self = .slash
        } else if name.contains(0x5C) {
            self = .backslash
        } else if DocumentID.namesGitFolder(text) {
            self = .gitFolder(text)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .empty: "an empty name"
        case .notUTF8: "a name that is not UTF-8"
        case .dotName(let name): "'\(name)' is not a name"
        case .slash: "a name with a slash"
        case .backslash: "a name with a backslash"
        case .gitFolder(let name): "'\(name)' could stand for git's own folder"
        }
    }
}
