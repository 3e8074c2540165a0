extension RemoteURL {
    /// The placeholders of a content URL template: `{collection}` and `{item}`.
    public static let contentTemplatePlaceholders = ["{collection}", "{item}"]

    /// The template of the content items served beside this remote, as `cairn server` lays
    /// them out: the remote's folder, then `content/{collection}/{item}`, with `.git` when the
    /// remote's own name has it (`https://host/git/u1.git` →
    /// `https://host/git/content/{collection}/{item}.git`; gitolite's `ssh://git@host/u1` →
    /// `ssh://git@host/content/{collection}/{item}`; scp's `git@host:u1` → `git@host:content/…`).
    public var contentTemplate: String {
        var base = url
        var suffix = ""
        if base.hasSuffix(".git") {
            suffix = ".git"
            base.removeLast(4)
        }
        if let slash = base.lastIndex(of: "/") {
            base = String(base[...slash])
        } else if transport == .ssh, let colon = base.firstIndex(of: ":") {
            base = String(base[...colon])
        } else {
            base += "/"
        }
        // A URL given with the user in it keeps the user: the content is reached as the user.
        return base + "content/{collection}/{item}" + suffix
    }

    /// The remote of one content item: `template` (see ``contentTemplate``) with its
    /// placeholders filled. The collection and item must be valid IDs (checked by the caller).
    ///
    /// An ID may hold any character but `/`. In an HTTP URL each byte of its UTF-8 that is
    /// not unreserved (RFC 3986 §2.3: letters, digits, `-._~`) is percent-encoded, so that a
    /// space, an accent, `%`, `#` or `?` reach the server as part of the ID, which decodes it
    /// to the item's folder. A path, and the SSH forms whose path goes to the server as it is,
    /// take the ID as it is.
    public static func contentItem(
        _ template: String, collection: String, item: String,
        relativeTo folder: String? = nil
    ) throws(CairnError) -> RemoteURL {
        guard template.contains("{item}") else {
            throw CairnError(
                .invalidInput,
                "invalid content URL \(template): it needs {item} (and usually {collection}), like https://host/git/content/{collection}/{item}.git"
            )
        }
        let scheme = template.prefix { $0 != ":" }.lowercased()
        let encodes = scheme == "http" || scheme == "https"
        let filled = template.replacingPlaceholder("{collection}", with: encodes ? percentEncoded(collection) : collection)
            .replacingPlaceholder("{item}", with: encodes ? percentEncoded(item) : item)
        return try RemoteURL(filled, relativeTo: folder)
    }

    /// `text` with every byte of its UTF-8 that is not unreserved written `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func replacingPlaceholder(_ placeholder: String, with value: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: placeholder) {
            result += rest[..<range.lowerBound] + value
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
