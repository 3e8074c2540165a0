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
    public static func refusal(of components: [[UInt8]], mode: UInt32, uid: String) -> String? {
        let shown = components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
        for name in components {
            if let problem = nameProblem(name) { return "\(debugQuoted(shown)): \(problem)" }
        }
        switch mode {
        case 0o100644: break
        case 0o100755: return "\(shown) is executable; a store holds plain files only"
        case 0o120000: return "\(shown) is a symbolic link; a store holds plain files only"
        case 0o160000: return "\(shown) is a submodule; a store holds plain files only"
        default: return "\(shown) has file mode \(String(mode, radix: 8)); a store holds plain files only"
        }
        let names = components.map { String(decoding: $0, as: UTF8.self) }
        if names == [".gitattributes"] || (names.count >= 2 && names[0] == ".cairn") { return nil }
        guard names.count >= 2, names[0] == "users" else {
            return "\(shown) is outside the store's folders (users/\(uid)/, .cairn/)"
        }
        guard names[1] == uid + ".json" || (names.count >= 3 && names[1] == uid) else {
            return "\(shown) belongs to another user than \(uid)"
        }
        guard DocumentPath(fileName: shown) != nil else {
            return "\(shown) is not a document's file (users/\(uid)/…/ID.json with valid IDs)"
        }
        return nil
    }

    /// Why one name cannot be in a tree, or nil.
    static func nameProblem(_ name: [UInt8]) -> String? {
        guard !name.isEmpty else { return "an empty name" }
        guard let text = String(validating: name, as: UTF8.self) else { return "a name that is not UTF-8" }
        if text == "." || text == ".." { return "'\(text)' is not a name" }
        // A tree entry's name never holds '/': one that does would reach other folders.
        if name.contains(0x2F) { return "a name with a slash" }
        if name.contains(0x5C) { return "a name with a backslash" }
        if DocumentID.namesGitFolder(text) {
            return "'\(text)' could stand for git's own folder"
        }
        return nil
    }

    private static func debugQuoted(_ text: String) -> String {
        text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{FFFD}" } ? String(reflecting: text) : text
    }
}
