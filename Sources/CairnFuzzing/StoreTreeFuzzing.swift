import CairnMerge

/// The check of what a fetched tree may hold, on arbitrary file entries.
///
/// An input is a header `MODE UID` (the git file mode in octal, the user), then the names of
/// the file's path from the top of the tree, each after a NUL byte — the one byte a tree
/// entry's name cannot hold, so a name may hold anything else, a `/` too.
///
/// A file accepted is a plain file, every name of its path is UTF-8 and is not empty, `.`,
/// `..`, a form of `.git`, nor holds a slash or a backslash, and it is `.gitattributes`, under
/// `.cairn/`, or the file of a valid document of that user. Conversely every valid document of
/// the user, as a plain file, is accepted. (The sync also parses every arriving document: that
/// is the JSON target's parser.)
public enum StoreTreeFuzzing {
    public static func run(_ input: [UInt8]) {
        let parts = input.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        guard parts.count >= 2 else { return }
        let header = String(decoding: parts[0], as: UTF8.self).split(separator: " ", maxSplits: 1)
        guard header.count == 2, let mode = UInt32(header[0], radix: 8) else { return }
        let uid = String(header[1])
        let components = Array(parts.dropFirst())
        let refusal = StoreTree.refusal(of: components, mode: mode, uid: uid)
        let names = components.map { String(validating: $0, as: UTF8.self) }
        if refusal == nil {
            checkAccepted(names, mode: mode, uid: uid)
        } else if (try? DocumentID.validate(uid, in: uid)) != nil, mode == 0o100644 {
            checkRefused(names, uid: uid, refusal: refusal!.description)
        }
    }

    /// `.git` on some file system, as CairnCore.docc, Syncing lists it: any case, trailing dots or spaces,
    /// the short name `GIT~N`.
    static func isGitFolder(_ name: String) -> Bool {
        var folded = Substring(name.lowercased())
        while let last = folded.last, last == "." || last == " " { folded = folded.dropLast() }
        let digits = folded.dropFirst(4)
        return folded == ".git" || (folded.hasPrefix("git~") && !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber })
    }

    static func checkAccepted(_ names: [String?], mode: UInt32, uid: String) {
        Invariant.require(mode == 0o100644, "accepted file mode \(String(mode, radix: 8))")
        let texts = names.compactMap { $0 }
        Invariant.require(texts.count == names.count, "accepted a name that is not UTF-8")
        for name in texts {
            Invariant.require(!name.isEmpty && name != "." && name != "..", "accepted the name \"\(name)\"")
            Invariant.require(
                !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(UInt8(ascii: "\\")),
                "accepted a name with a slash or backslash: \(name)")
            Invariant.require(!isGitFolder(name), "accepted a name that could be .git: \(name)")
        }
        if texts == [".gitattributes"] || (texts.count >= 2 && texts[0] == ".cairn") { return }
        let joined = texts.joined(separator: "/")
        guard let path = DocumentPath(fileName: joined) else {
            Invariant.require(false, "accepted \(joined), which is not a document's file")
            return
        }
        Invariant.require(
            path.segments.count >= 2 && path.segments[0] == "users" && path.segments[1] == uid,
            "accepted \(joined), a document of another user than \(uid)")
        Invariant.require(path.fileName == joined, "a document's file is written differently from \(joined)")
    }

    /// A plain file of a valid document of the user is never refused.
    static func checkRefused(_ names: [String?], uid: String, refusal: String) {
        let texts = names.compactMap { $0 }
        guard texts.count == names.count, !texts.contains(where: { $0.utf8.contains(UInt8(ascii: "/")) }),
            let path = DocumentPath(fileName: texts.joined(separator: "/")),
            path.segments[0] == "users", path.segments[1] == uid
        else { return }
        Invariant.require(false, "refused \(path.fileName), a valid document of \(uid): \(refusal)")
    }
}
