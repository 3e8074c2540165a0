import CairnCore
import CairnMerge
import CairnSystem
import Git

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Shared content on the server: `folder/content/<collection>/` holds the collection's schema
/// set (`schema/`), its authors (`authors`, one user name a line) and one bare repository per
/// item (`<item>.git`), whose commits on `main` are the item's versions.
extension Server {
    /// The folder of every collection, in the server's folder: `content`.
    public static let contentFolder = "content"
    /// The git config key that marks a content item's repository and names its collection.
    public static let contentConfigKey = "cairn.content"
    /// The file of a collection's authors: the users who may push (publish) its items.
    public static let authorsFile = "authors"
    /// The folder of a collection's schema set.
    public static let contentSchemaFolder = "schema"

    /// What `createContent` made: the collection's folder and the repositories it created
    /// (those that existed already are left alone and not listed).
    public struct CreatedContent: Sendable {
        public var collectionFolder: String
        public var createdCollection: Bool
        public var repositories: [String]
    }

    /// Creates (or completes) the collection `collection` in `folder/content/`: its schema set
    /// (a content set whose collection is `collection`) and a bare repository per item not there
    /// yet, each guarded by `cairn hook pre-receive` like a user's; `authors` are added to the
    /// collection's authors file. Everything is checked before anything is written: names and
    /// items are IDs, the set is a content set of this collection and, when the collection
    /// exists, the very set it holds.
    public static func createContent(
        in folder: String, collection: String, items: [String], cairn: String,
        schemaSet: SchemaSetFiles, authors: [String] = []
    ) throws(CairnError) -> CreatedContent {
        try validate(id: collection, what: "collection name")
        for item in items { try validate(id: item, what: "item ID") }
        for author in authors { try validate(id: author, what: "author's user name") }
        let set = try SchemaSet(reading: schemaSet, then: "nothing was created")
        guard let setCollection = set.contentCollection else {
            throw CairnError(
                .invalidInput,
                "the schema set \(schemaSet.name) describes progress, not content: mark its kinds \"x-cairn\": {\"content\": true} with paths under \(collection)/{itemId}; nothing was created"
            )
        }
        guard setCollection == collection else {
            throw CairnError(
                .invalidInput,
                "the schema set \(schemaSet.name) describes the collection \(setCollection), not \(collection); name the collection \(setCollection) or use another set; nothing was created"
            )
        }
        let root = Home.normalize(RemoteURL.absolute(folder, in: FileManager.default.currentDirectoryPath))
        let collectionFolder = root + "/" + contentFolder + "/" + collection
        let schemaFolder = collectionFolder + "/" + contentSchemaFolder
        let exists = FileSystem.kind(collectionFolder) != nil
        if exists {
            let held = try schemaFiles(inCollectionFolder: collectionFolder)
            guard held == schemaSet.files else {
                throw CairnError(
                    .invalidInput,
                    "\(collectionFolder) holds another schema set than \(schemaSet.name); a collection keeps the set it was made with (update \(schemaFolder) by hand to change it); nothing was created"
                )
            }
        }
        try checkWritable(collectionFolder)
        for item in items where FileSystem.kind(collectionFolder + "/\(item).git").map({ $0 != .folder }) ?? false {
            throw CairnError(
                .alreadyExists, "\(collectionFolder)/\(item).git exists and is not a repository; move it away; nothing was created")
        }
        if !exists {
            try FileSystem.makeFolders(schemaFolder)
            for (name, bytes) in schemaSet.files {
                try FileSystem.writeAtomically(bytes, to: schemaFolder + "/" + name)
            }
        }
        // New authors are added below the file's lines, which stay as the operator wrote them.
        let held = try self.authors(inCollectionFolder: collectionFolder)
        let added = Set(authors).subtracting(held ?? []).sorted()
        if held == nil {
            try FileSystem.writeAtomically(Array(added.map { $0 + "\n" }.joined().utf8), to: collectionFolder + "/" + authorsFile)
        } else if !added.isEmpty {
            try FileSystem.appendLines(Array(added.map { $0 + "\n" }.joined().utf8), to: collectionFolder + "/" + authorsFile)
        }
        var created: [String] = []
        for item in items where FileSystem.kind(collectionFolder + "/\(item).git") == nil {
            let path = collectionFolder + "/\(item).git"
            try createBareRepository(
                at: path, config: [contentConfigKey: collection], cairn: cairn,
                hookComment: """
                    # Every push to \(collection)/\(item) is checked by Cairn: only its authors publish,
                    # only \(collection)/\(item).json and \(collection)/\(item)/, documents valid under the
                    # collection's schema set, published versions never rewritten.
                    """)
            created.append(path)
        }
        return CreatedContent(collectionFolder: collectionFolder, createdCollection: !exists, repositories: created)
    }

    /// Removes the repository of `item` from the collection `collection` of `folder`: devices
    /// then find no such item (404, repository not found) and treat it as deleted.
    public static func removeContent(in folder: String, collection: String, item: String) throws(CairnError) -> String {
        try validate(id: collection, what: "collection name")
        try validate(id: item, what: "item ID")
        let root = Home.normalize(RemoteURL.absolute(folder, in: FileManager.default.currentDirectoryPath))
        let path = root + "/" + contentFolder + "/" + collection + "/\(item).git"
        guard FileSystem.kind(path) == .folder, (try? Repository(openingAt: path).config(contentConfigKey)) == collection else {
            throw CairnError(
                .notFound, "\(path) is not a repository of the collection \(collection)", remedy: .serveContentCollection(consequence: nil))
        }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw CairnError(.io, "cannot remove \(path): \(error)")
        }
        return path
    }

    /// The authors a collection's folder names (one user name a line, spaces ignored; blank lines
    /// and lines starting with `#` are skipped), nil when it has no authors file.
    public static func authors(inCollectionFolder folder: String) throws(CairnError) -> Set<String>? {
        guard let bytes = try FileSystem.read(folder + "/" + authorsFile) else { return nil }
        return Set(
            String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { String($0.filter { !$0.isWhitespace }) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    /// The set files (schemas and migrations) a collection's folder holds in `schema/`.
    public static func schemaFiles(inCollectionFolder folder: String) throws(CairnError) -> [String: [UInt8]] {
        let schemaFolder = folder + "/" + contentSchemaFolder
        var files: [String: [UInt8]] = [:]
        for name in FileSystem.names(in: schemaFolder) where SchemaSetFiles.isSetFile(name) {
            files[name] = try FileSystem.read(schemaFolder + "/" + name) ?? []
        }
        guard !files.isEmpty else {
            throw CairnError(.notFound, "\(schemaFolder) holds no schema set", remedy: .serveContentCollection(consequence: nil))
        }
        return files
    }

    private static func validate(id: String, what: String) throws(CairnError) {
        do {
            try DocumentID.validate(id, in: id)
        } catch {
            throw CairnError(.invalidInput, "invalid \(what): \(error.description); nothing was created", cause: error)
        }
    }

    /// Refuses a folder that cannot be made or written: the nearest existing folder on its
    /// path must be a writable folder.
    private static func checkWritable(_ path: String) throws(CairnError) {
        var existing = path
        while FileSystem.kind(existing) == nil, existing != "/" { existing = FileSystem.parent(of: existing) }
        guard FileSystem.kind(existing) == .folder else {
            throw CairnError(
                .invalidInput, "\(existing) is not a folder, so \(path) cannot be made; name another folder; nothing was created")
        }
        guard FileManager.default.isWritableFile(atPath: existing) else {
            throw CairnError(
                .io, "\(existing) cannot be written, so \(path) cannot be made; name a folder you may write; nothing was created")
        }
    }
}
