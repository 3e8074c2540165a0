import Git

extension Store {
    /// The git config key of a store's content URL template (``RemoteURL/contentTemplate``),
    /// set by `cairn content remote`; unset, the template follows the store's remote.
    public static let contentURLKey = "cairn.contentURL"

    /// The template of the URLs of the content items this store's user reads: the store's
    /// `cairn.contentURL`, else the one its remote implies; nil with neither.
    public func contentTemplate() throws(CairnError) -> String? {
        let stored = try translatingErrors("cannot read the store's configuration") {
            try repository.config(Self.contentURLKey)
        }
        if let stored, !stored.isEmpty { return stored }
        return try remote()?.contentTemplate
    }

    /// Sets (or, with nil, clears) the content URL template; it must name `{item}` and fill
    /// into a URL Cairn can use.
    public func setContentTemplate(_ template: String?) throws(CairnError) {
        if let template {
            _ = try RemoteURL.contentItem(template, collection: "c", item: "i", relativeTo: folder)
        }
        try locked("cannot set the content URL") {
            if let template {
                try repository.setConfig(Self.contentURLKey, to: template)
            } else if try repository.config(Self.contentURLKey) != nil {
                try repository.removeConfig(Self.contentURLKey)
            }
        }
    }

    /// The remote of `item` of `collection` for this store's user.
    public func contentRemote(collection: String, item: String) throws(CairnError) -> RemoteURL {
        guard let template = try contentTemplate() else {
            throw CairnError(
                .notFound, "the store of user \(uid) has neither a remote nor a content URL, so content cannot be reached",
                remedy: .setRemote)
        }
        return try RemoteURL.contentItem(template, collection: collection, item: item, relativeTo: folder)
    }

    /// Whether a failure to reach an item means the server has no such item for this user: a
    /// missing path, HTTP 404, git's "not found", or gitolite's refusal to let the user read it
    /// (`R any content/… DENIED`: gitolite answers so for a repository removed from disk, as for
    /// one never made, so as not to tell them apart; every user may read content, so a denied
    /// read is an item gone for this user).
    package static func meansNoSuchItem(_ error: GitError) -> Bool {
        switch error.reason {
        case .repositoryNotFound?, .httpStatus(404)?: return true
        case .accessDenied(let said)?: return said.contains(" R any ") && said.contains("DENIED")
        default: return false
        }
    }
}
