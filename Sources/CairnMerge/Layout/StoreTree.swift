/// What a tree of a user's store may hold, checked on every tree that arrives from elsewhere
/// (a fetch, a clone, a push the server hook receives) before anything of it is written:
///
/// - `.gitattributes`, files under `.cairn/`, and the documents of that user: `users/<uid>.json`
///   and `users/<uid>/…/<id>.json` whose every ID is valid;
/// - plain files only: no symbolic link, submodule or executable mode;
/// - no name that is empty, `.`, `..`, a form of `.git` in any case (`.GIT`, `git~1`, `.git.`),
///   or holds a slash, a backslash or bytes that are not UTF-8.
public enum StoreTree {
    /// Why the file at `components` (the names from the top of the tree, as stored) with git
    /// file `mode` cannot be in the store of `uid`; nil when it can.
    public static func refusal(of components: [[UInt8]], mode: UInt32, uid: String) -> StoreTreeRefusal? {
        if let refusal = fileRefusal(of: components, mode: mode) { return refusal }
        let names = components.map { String(decoding: $0, as: UTF8.self) }
        let shown = names.joined(separator: "/")
        if StoreLayout.isOwnFile(names: names) { return nil }
        guard names.count >= 2, names[0] == StoreLayout.usersFolder else {
            return .outsideTheStore(path: shown, uid: uid)
        }
        guard names[1] == uid + ".json" || (names.count >= 3 && names[1] == uid) else {
            return .anotherUser(path: shown, uid: uid)
        }
        guard DocumentPath(fileName: shown) != nil else {
            return .notADocument(path: shown, uid: uid)
        }
        return nil
    }

    /// Why the file at `components` with git file `mode` cannot be in any tree Cairn accepts
    /// (a bad name, not a plain file), wherever it is; nil when it can.
    public static func fileRefusal(of components: [[UInt8]], mode: UInt32) -> StoreTreeRefusal? {
        var shown: String { components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/") }
        for name in components {
            if let problem = TreeNameProblem(name) { return .badName(path: debugQuoted(shown), problem: problem) }
        }
        switch mode {
        case 0o100644: return nil
        case 0o100755: return .executable(path: shown)
        case 0o120000: return .symbolicLink(path: shown)
        case 0o160000: return .submodule(path: shown)
        default: return .otherMode(path: shown, mode: mode)
        }
    }

    private static func debugQuoted(_ text: String) -> String {
        text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{FFFD}" } ? String(reflecting: text) : text
    }
}
