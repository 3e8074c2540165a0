/// The rules one ID (a collection's or a document's name, or a user id) must keep.
///
/// Firestore's rules: UTF-8, no `/`, not `.` or `..`, not of the form `__…__`. Cairn adds
/// what files on disk need: at most 250 bytes (a file name holds 255, and a document is
/// `ID.json`), no control characters, no leading `.` (hidden files, `.git`), no name ending
/// in `.json` (the file of document `x` is `x.json`, the folder of document `x.json` would
/// be `x.json/`), and not `git~1`-style names (the short name of `.git` on Windows).
/// Two IDs that differ only in case are refused in one collection by the store, which can
/// see its siblings.
public enum DocumentID {
    /// The longest ID, in UTF-8 bytes.
    public static let maxBytes = 250

    /// Checks one ID; `path` is the full path it came from, for the message.
    public static func validate(_ id: String, in path: String) throws(PathError) {
        func refuse(_ rule: PathError.Rule, _ explanation: String) -> PathError {
            PathError(rule: rule, path: path, id: id, explanation: explanation)
        }
        if id.isEmpty {
            throw refuse(.empty, "an ID may not be empty")
        }
        if id.utf8.count > maxBytes {
            throw refuse(.tooLong, "an ID is at most \(maxBytes) bytes of UTF-8 (this one is \(id.utf8.count)); use a shorter ID")
        }
        if id.contains("/") {
            throw refuse(.slash, "an ID may not contain '/'")
        }
        if id == "." || id == ".." {
            throw refuse(.dotName, "'.' and '..' are not IDs")
        }
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw refuse(.controlCharacter, "an ID may not contain NUL or other control characters")
        }
        if id.utf8.count >= 4, id.hasPrefix("__"), id.hasSuffix("__") {
            throw refuse(.reserved, "IDs of the form __…__ are reserved; choose another ID")
        }
        if id.hasPrefix(".") {
            throw refuse(.leadingDot, "an ID may not start with '.'; choose another ID")
        }
        if id.lowercased().hasSuffix(".json") {
            throw refuse(.jsonSuffix, "an ID may not end in '.json' (documents are stored as ID.json); drop the suffix")
        }
        if isShortNameOfGit(id) {
            throw refuse(.shortName, "\(id) is how Windows names the '.git' folder; choose another ID")
        }
    }

    /// `git~1`, `GIT~12`: what NTFS's 8.3 short names make of `.git`.
    private static func isShortNameOfGit(_ id: String) -> Bool {
        let lower = id.lowercased()
        guard lower.hasPrefix("git~") else { return false }
        let digits = lower.dropFirst(4)
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    /// Whether two IDs would name one file on a case-insensitive or normalizing file system
    /// (APFS, NTFS) without being the same bytes.
    public static func collide(_ first: String, _ second: String) -> Bool {
        guard first.utf8.elementsEqual(second.utf8) == false else { return false }
        // Swift's String equality is canonical equivalence, so NFC and NFD forms compare equal.
        return first.lowercased() == second.lowercased()
    }
}
