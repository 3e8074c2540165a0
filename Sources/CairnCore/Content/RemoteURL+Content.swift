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
        if base.hasSuffix(".git") { suffix = ".git"; base.removeLast(4) }
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
    public static func contentItem(_ template: String, collection: String, item: String,
                                   relativeTo folder: String? = nil) throws(CairnError) -> RemoteURL {
        guard template.contains("{item}") else {
            throw CairnError(.invalidInput, "invalid content URL \(template): it needs {item} (and usually {collection}), like https://host/git/content/{collection}/{item}.git")
        }
        let filled = template.replacingPlaceholder("{collection}", with: collection).replacingPlaceholder("{item}", with: item)
        return try RemoteURL(filled, relativeTo: folder)
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
