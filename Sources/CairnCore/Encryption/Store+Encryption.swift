import CairnMerge
import Git
import GitFormat

extension Store {
    /// The git configuration key naming the ID of the key that seals the store's documents
    /// (its keyring's current key); set on creation, on clone and by a rotation, and compared
    /// with the keys given when the store opens.
    static let keyIDConfigKey = "cairn.keyID"
    /// The git configuration key naming the key file the command line reads the store's keys
    /// from when the environment names none (the path, never the key).
    public static let keyFileConfigKey = "cairn.keyFile"

    /// Whether the store's documents are sealed: its `.cairn/store.json` says `"encrypted": true`.
    public var isEncrypted: Bool { codec.isEncrypted }

    /// The keys an encrypted store was opened with (the current one seals); nil for a plain store.
    public var keyring: Keyring? { codec.cipher?.keyring }

    /// The key file the store's `cairn.keyFile` names, if it names one.
    public var keyFile: String? {
        guard let file = (try? repository.config(Self.keyFileConfigKey)) ?? nil, !file.isEmpty else { return nil }
        return file
    }

    /// The keys for the repository at `folder` (a store's working tree, as git runs a text
    /// converter there): the configuration's, else those of the repository's `cairn.keyFile`;
    /// nil when neither names any or there is no repository.
    public static func keyring(forRepositoryAt folder: String, configuration: Configuration) throws(CairnError) -> Keyring? {
        if let keys = configuration.keys { return try keys.keyring() }
        guard let repository = try? Repository(openingAt: folder, checkingPacks: false) else { return nil }
        return try keyring(configuration: configuration, repository: repository)
    }

    /// Has git show an encrypted store's documents as JSON where the key is: `*.json` gets
    /// the diff driver `cairn-sealed` (in `.git/info/attributes`, never committed), whose text
    /// converter is `<executable> key textconv`. Without it (a clone by another tool, a
    /// machine without the key) git shows the blobs as binary.
    func configureDiffOfSealedDocuments(executable: String) throws {
        try repository.setConfig("diff.cairn-sealed.textconv", to: "'\(executable)' key textconv")
        try repository.setConfig("diff.cairn-sealed.binary", to: "true")
        let attributes = repository.gitdir + "info/attributes"
        let line = "*.json diff=cairn-sealed\n"
        if let existing = try FileSystem.read(attributes), String(decoding: existing, as: UTF8.self).contains(line) { return }
        try FileSystem.makeFolders(repository.gitdir + "info")
        try FileSystem.appendLines(Array(line.utf8), to: attributes)
    }

    /// The codec of the store at `folder`, from its identity file: plain, or sealed with the
    /// keys of `configuration`. An encrypted store opened without a keyring, or with one that
    /// lacks the key its documents are sealed with, is refused before anything is read.
    static func codec(uid: String, folder: String, repository: Repository, configuration: Configuration) throws(CairnError) -> DocumentCodec
    {
        guard Self.identityMarksEncrypted(folder: folder) else { return .plain }
        let recorded = (try? repository.config(keyIDConfigKey)) ?? nil
        guard let keyring = try keyring(configuration: configuration, repository: repository) else {
            throw CairnError(
                .authentication, "the store of user \(uid) is encrypted and no key was given",
                remedy: .giveStoreKey(keyID: recorded ?? "of the store"))
        }
        if let recorded, !keyring.keys.contains(where: { $0.id.description == recorded }) {
            let given = keyring.keys.map(\.id.description).joined(separator: ", ")
            throw CairnError(
                .authentication, "the store of user \(uid) is encrypted with key \(recorded), which is not among the keys given (\(given))",
                remedy: .giveStoreKey(keyID: recorded))
        }
        return DocumentCodec(cipher: DocumentCipher(keyring: keyring))
    }

    /// The keys the configuration gives, else those of the key file the store's own
    /// `cairn.keyFile` names; nil when neither names any.
    static func keyring(configuration: Configuration, repository: Repository) throws(CairnError) -> Keyring? {
        if let keys = configuration.keys { return try keys.keyring() }
        guard let file = (try? repository.config(keyFileConfigKey)) ?? nil, !file.isEmpty else { return nil }
        return try Keyring(contentsOfKeyFile: file)
    }

    /// Whether the identity file in the working tree marks the store encrypted.
    static func identityMarksEncrypted(folder: String) -> Bool {
        guard let bytes = try? FileSystem.read(folder + "/" + StoreLayout.identityFile),
            case .bool(true)? = (try? JSONParser().parse(bytes))?.field("encrypted")
        else { return false }
        return true
    }

    /// The document the file `file` of the working tree or of a blob holds.
    func parseStored(_ bytes: [UInt8], file: String, what: String? = nil) throws(CairnError) -> JSONValue {
        try codec.document(bytes, at: file, what: what)
    }

    /// Makes the store, restored from a remote whose tree `tree` is an encrypted store's,
    /// read and write sealed documents: refused when the configuration gives no keyring or
    /// one without the key the tree's documents are sealed with. The caller holds the lock.
    func adoptEncryption(of tree: ObjectID) throws {
        guard let keyring = try Self.keyring(configuration: configuration, repository: repository) else {
            throw CairnError(
                .authentication, "the remote holds the encrypted store of user \(uid) and no key was given",
                remedy: .giveStoreKey(keyID: try sealingKeyID(in: tree)?.description ?? "of the store"))
        }
        let sealing = try sealingKeyID(in: tree) ?? keyring.current.id
        guard keyring.key(withID: sealing) != nil else {
            let given = keyring.keys.map(\.id.description).joined(separator: ", ")
            throw CairnError(
                .authentication,
                "the remote holds the store of user \(uid) encrypted with key \(sealing), which is not among the keys given (\(given))",
                remedy: .giveStoreKey(keyID: sealing.description))
        }
        try repository.setConfig(Self.keyIDConfigKey, to: sealing.description)
        if case .file(let path)? = configuration.keys {
            try repository.setConfig(Self.keyFileConfigKey, to: FileSystem.absolutePath(path))
        }
        codec = DocumentCodec(cipher: DocumentCipher(keyring: keyring))
    }

    /// The key that sealed the documents of `tree`, as the first document's header names it;
    /// nil for a tree without documents.
    func sealingKeyID(in tree: ObjectID) throws -> StoreKey.ID? {
        for file in try repository.files(under: StoreLayout.usersFolder, inTree: tree) {
            guard DocumentPath(fileName: file.path) != nil, let entry = file.entries[0] else { continue }
            return DocumentCipher.keyID(of: try repository.blobContent(entry.id))
        }
        return nil
    }
}
