/// Where a user's store keeps what, in its working tree and in every tree of its history:
///
/// - the user's documents: `users/<uid>.json` and `users/<uid>/…/<id>.json`;
/// - the store's own files: `.cairn/store.json` (which user the store is for, and its schema
///   set's name), the schema set in `.cairn/schema/`, `.gitattributes` (Cairn's merge
///   driver for every document, Git LFS for assets), and the Git LFS pointers of the
///   documents' assets in `.cairn/assets/<document>/.<field>` (derived from the documents).
///
/// Nothing else belongs in a store (``StoreTree`` refuses the rest). What Cairn keeps in the
/// repository's git folder is named by the store (CairnCore), which knows of git.
public enum StoreLayout {
    /// The folder of every user's documents: `users`.
    public static let usersFolder = "users"
    /// The folder of the store's own files: `.cairn`.
    public static let ownFolder = ".cairn"
    /// The file that marks a folder as a store and names its user.
    public static let identityFile = ".cairn/store.json"
    /// The folder of the store's schema set.
    public static let schemaFolder = ".cairn/schema"
    /// The folder of the assets' Git LFS pointers: `.cairn/assets`.
    public static let assetsFolder = ".cairn/assets"
    /// The file that selects Cairn's merge driver for every document.
    public static let attributesFile = ".gitattributes"
    /// What the name of a write's temporary file starts with (beside the file it replaces,
    /// until the rename): such files are never the store's, and git ignores them.
    public static let temporaryFilePrefix = ".cairn-tmp-"
    /// `.cairn/`: what every path under the store's own folder starts with.
    private static let ownFolderPrefix = ownFolder + "/"

    /// The folder of the documents below `uid`'s own: `users/<uid>`.
    public static func documentsFolder(of uid: String) -> String {
        usersFolder + "/" + uid
    }

    /// The file of `uid`'s own document: `users/<uid>.json`.
    public static func userFile(of uid: String) -> String {
        usersFolder + "/" + uid + ".json"
    }

    /// The path of `uid`'s own document, `users/<uid>`; nil for a `uid` no path may hold.
    public static func userDocument(of uid: String) -> DocumentPath? {
        try? DocumentPath(usersFolder + "/" + uid)
    }

    /// The folder of the pointers of the assets of the document at `path`:
    /// `.cairn/assets/users/u1/readingSessions/s1`.
    public static func assetFolder(of path: DocumentPath) -> String {
        assetsFolder + "/" + path.description
    }

    /// The Git LFS pointer of the asset in `field` of the document at `path`:
    /// `.cairn/assets/users/u1/readingSessions/s1/.audioAsset`. The dot keeps it apart from
    /// the folders of the document's subcollections beside it (an ID never starts with one).
    public static func assetPointerFile(of path: DocumentPath, field: String) -> String {
        assetFolder(of: path) + "/." + field
    }

    /// The document and field whose asset pointer is the file at `path`; nil when `path` is
    /// not under `.cairn/assets/` or names no document.
    public static func assetField(ofPointerFile path: String) -> (document: DocumentPath, field: String)? {
        guard path.hasPrefix(assetsFolder + "/") else { return nil }
        let rest = path.dropFirst(assetsFolder.count + 1)
        guard let slash = rest.lastIndex(of: "/"), rest[rest.index(after: slash)...].hasPrefix("."),
            let document = try? DocumentPath(String(rest[..<slash]))
        else { return nil }
        return (document, String(rest[rest.index(slash, offsetBy: 2)...]))
    }

    /// Whether the file at `path` (from the top of the working tree) is one of the store's
    /// own files: `.gitattributes`, or a file under `.cairn/`.
    public static func isOwnFile(_ path: String) -> Bool {
        path.hasPrefix(ownFolderPrefix) || path == attributesFile
    }

    /// Whether the file at `names` (from the top of a tree) is one of the store's own files.
    public static func isOwnFile(names: [String]) -> Bool {
        names == [attributesFile] || (names.count >= 2 && names[0] == ownFolder)
    }

    /// Whether the document at `path` is one `uid` may own: `users/<uid>` or below it.
    public static func isOwned(_ path: DocumentPath, by uid: String) -> Bool {
        path.segments[0] == usersFolder && path.segments[1] == uid
    }

    /// Whether the collection at `path` is one `uid` may read: `users` (which lists `uid`
    /// only in the store of `uid`) or a collection below `users/<uid>`.
    public static func isOwned(_ path: CollectionPath, by uid: String) -> Bool {
        path.segments[0] == usersFolder && (path.segments.count == 1 || path.segments[1] == uid)
    }
}
