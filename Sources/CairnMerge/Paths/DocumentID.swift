/// The rules one ID (a collection's or a document's name, or a user id) must keep.
///
/// Firestore's rules: UTF-8, no `/`, not `.` or `..`, not of the form `__…__`. Cairn adds
/// what files on disk need: at most 250 bytes (a file name holds 255, and a document is
/// `ID.json`), no backslash (a folder separator on Windows), no control characters, no
/// leading `.` (hidden files, `.git`), no name ending in `.json` (the file of document `x` is
/// `x.json`, the folder of document `x.json` would be `x.json/`), and not `git~1`-style names
/// (the short name of `.git` on Windows, also with trailing dots or spaces).
/// Two IDs that differ only in case are refused in one collection by the store, which can
/// see its siblings.
public enum DocumentID {
    /// The longest ID, in UTF-8 bytes.
    public static let maxBytes = 250

    /// Checks one ID; `path` is the full path it came from, for the message.
    public static func validate(_ id: String, in path: String) throws(PathError) {
        // Most IDs pass a few byte comparisons; a restore checks thousands at once.
        if isPlainlyValid(id) { return }
        try validateByEveryRule(id, in: path)
    }

    /// Whether an ID keeps every rule at a glance: 1 to ``maxBytes`` bytes of ASCII letters,
    /// digits, `-`, `_` and `.`, not starting with `.`, not `__…__`, not ending in `.json` in
    /// any case. Such an ID has no control character, slash or backslash, and no `~`, so no
    /// name of git's folder. False says only "look closer": ``validateByEveryRule(_:in:)``
    /// decides, and accepts whatever this accepts (checked against it by a test).
    static func isPlainlyValid(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { bytes in
            guard (1...maxBytes).contains(bytes.count), bytes[0] != UInt8(ascii: ".") else { return false }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                    continue
                default:
                    return false
                }
            }
            let last = bytes.count - 1
            if bytes.count >= 4, bytes[0] == UInt8(ascii: "_"), bytes[1] == UInt8(ascii: "_"),
                bytes[last] == UInt8(ascii: "_"), bytes[last - 1] == UInt8(ascii: "_")
            {
                return false
            }
            if bytes.count > 5 {
                let suffix = ".json".utf8
                if zip(bytes.suffix(5), suffix).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return false }
            }
            return true
        }
    }

    /// Checks one ID against each rule in turn, and says which it breaks.
    static func validateByEveryRule(_ id: String, in path: String) throws(PathError) {
        func refuse(_ rule: PathError.Rule, _ explanation: String) -> PathError {
            PathError(rule: rule, path: path, id: id, explanation: explanation)
        }
        if id.isEmpty {
            throw refuse(.empty, "an ID may not be empty")
        }
        if id.utf8.count > maxBytes {
            throw refuse(.tooLong, "an ID is at most \(maxBytes) bytes of UTF-8 (this one is \(id.utf8.count)); use a shorter ID")
        }
        // Bytes, not Characters: "/" or "." followed by a combining mark is another Character.
        if id.utf8.contains(UInt8(ascii: "/")) {
            throw refuse(.slash, "an ID may not contain '/'")
        }
        if id == "." || id == ".." {
            throw refuse(.dotName, "'.' and '..' are not IDs")
        }
        if id.utf8.contains(UInt8(ascii: "\\")) {
            throw refuse(.backslash, "an ID may not contain '\\' (Windows reads it as a folder separator); choose another ID")
        }
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw refuse(.controlCharacter, "an ID may not contain NUL or other control characters")
        }
        if id.utf8.count >= 4, id.hasPrefix("__"), id.hasSuffix("__") {
            throw refuse(.reserved, "IDs of the form __…__ are reserved; choose another ID")
        }
        if id.utf8.first == UInt8(ascii: ".") {
            throw refuse(.leadingDot, "an ID may not start with '.'; choose another ID")
        }
        if stem(ofFileName: id.lowercased()) != nil {
            throw refuse(.jsonSuffix, "an ID may not end in '.json' (documents are stored as ID.json); drop the suffix")
        }
        if namesGitFolder(id) {
            throw refuse(.shortName, "\(id) is how Windows names the '.git' folder; choose another ID")
        }
    }

    /// A file's name without its `.json` suffix (`b1.json` → `b1`), nil when it has none.
    /// Compared by bytes: a character such as U+0600 joins the `.` after it into one Character,
    /// so `String.hasSuffix(".json")` misses the suffix of a document whose ID ends in one.
    public static func stem(ofFileName name: String) -> String? {
        let suffix = ".json".utf8
        guard name.utf8.count > suffix.count, name.utf8.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        return String(decoding: name.utf8.dropLast(suffix.count), as: UTF8.self)
    }

    /// Whether a file name is `.git` on some file system: in any case, with the trailing dots
    /// and spaces Windows drops (`.git.`, `git~1 `), or as NTFS's 8.3 short name (`GIT~1`,
    /// `git~12`). IDs and the names of fetched trees are refused by this one rule, so what
    /// one device writes, another accepts.
    static func namesGitFolder(_ name: String) -> Bool {
        // An ASCII name lowers byte by byte; a non-ASCII character can lower to an ASCII one
        // (the Kelvin sign to `k`), so other names take the reference path.
        var name = name
        let ascii: Bool? = name.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: ".") || bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            let folded = bytes[..<end].lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
            if folded.elementsEqual(".git".utf8) { return true }
            guard folded.starts(with: "git~".utf8), end > 4 else { return false }
            return folded.dropFirst(4).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        return ascii ?? namesGitFolderFolding(name)
    }

    /// ``namesGitFolder(_:)`` by Unicode's lowercase, for any name.
    static func namesGitFolderFolding(_ name: String) -> Bool {
        var folded = Substring(name.lowercased())
        while let last = folded.last, last == "." || last == " " { folded = folded.dropLast() }
        if folded == ".git" { return true }
        guard folded.hasPrefix("git~") else { return false }
        let digits = folded.dropFirst(4)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether the entry `name` of a collection's folder (a document's file `<ID>.json`, or
    /// the folder of its subcollections `<ID>`) and the ID `id` would name one thing on a
    /// case-insensitive or normalizing file system without being the same bytes: as
    /// ``collide(_:_:)`` of `id` and the entry's ID. An ASCII ID against an ASCII entry is
    /// compared byte by byte, ignoring case, without making strings: a create lists its whole
    /// collection, and most IDs are ASCII. Anything else takes the reference path, since a
    /// non-ASCII character can lower to an ASCII one (the Kelvin sign to `k`).
    public static func collides(_ id: String, withEntry name: String) -> Bool {
        let fast: Bool?? = id.utf8.withContiguousStorageIfAvailable { idBytes -> Bool? in
            name.utf8.withContiguousStorageIfAvailable { nameBytes -> Bool? in
                let suffix = ".json".utf8
                var length = nameBytes.count
                if length > suffix.count, nameBytes.suffix(suffix.count).elementsEqual(suffix) { length -= suffix.count }
                guard idBytes.allSatisfy({ $0 < 0x80 }), nameBytes.allSatisfy({ $0 < 0x80 }) else { return nil }
                guard length == idBytes.count else { return false }
                var differ = false
                for index in 0..<length where idBytes[index] != nameBytes[index] {
                    guard asciiLower(idBytes[index]) == asciiLower(nameBytes[index]) else { return false }
                    differ = true
                }
                return differ
            } ?? nil
        }
        if let answer = fast ?? nil { return answer }
        return collide(id, stem(ofFileName: name) ?? name)
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether two IDs would name one file on a case-insensitive or normalizing file system
    /// (APFS, NTFS) without being the same bytes.
    public static func collide(_ first: String, _ second: String) -> Bool {
        guard first.utf8.elementsEqual(second.utf8) == false else { return false }
        // Swift's String equality is canonical equivalence, so NFC and NFD forms compare equal.
        return first.lowercased() == second.lowercased()
    }
}
