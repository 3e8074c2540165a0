import CairnMerge
import CairnSystem
import Git
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One user's store: a git repository whose working tree holds that user's documents,
/// `users/<uid>.json` and everything under `users/<uid>/`.
///
/// Writes go to the files at once (atomically) and are recorded as pending; a checkpoint
/// commits the pending ones. Every write takes the store's lock, so one process writes at a
/// time. A store has one owner: it is not `Sendable`.
public final class Store {
    /// The user whose progress the store holds.
    public let uid: String
    /// The store's folder (the working tree), without a trailing `/`.
    public let folder: String
    /// What the program said of its surroundings: the lock's timeout, the credentials to
    /// offer a remote.
    public let configuration: Configuration
    package let repository: Repository
    let lock: StoreLock
    let journal: PendingJournal
    /// What the document files hold: plain JSON, or JSON sealed with the store's key.
    package internal(set) var codec: DocumentCodec
    /// The schema set, read on first use (``SchemaSet/empty``: the store has none).
    var loadedSchemaSet: SchemaSet? {
        didSet { schemaSetGeneration += 1 }
    }
    /// The stamp of `.cairn/schema` when ``loadedSchemaSet`` was read (nil inside: the folder
    /// was missing), and whether the folder had settled then (see
    /// ``forgetSchemaSetIfItsFolderChanged()``).
    var schemaFolderStamp: FileStamp??
    var schemaFolderSettled = false
    /// How many times ``loadedSchemaSet`` was read or let go: a put that checked its document
    /// before it took the lock checks it again when this moved meanwhile.
    var schemaSetGeneration = 0
    /// Documents read before, with the stamp of the file they were read from (see
    /// ``document(at:)``).
    var documentCache: [DocumentPath: (stamp: FileStamp, value: JSONValue)] = [:]
    /// The names of the large collections new documents were checked against, kept up to
    /// date while the store is open (see ``checkCaseCollisions(_:)``).
    let watchedFolders = WatchedFolders()
    /// The stamp of `HEAD` when it was last found on the store's branch (see
    /// ``checkHeadOnBranch(_:trustingStamp:)``).
    var headOnBranchStamp: FileStamp?
    /// The time files' stamps are compared with to know whether they settled: the real time
    /// (tests move it on instead of waiting).
    var fileClock: () -> Syscalls.Time = Syscalls.now
    /// Derived fields that the remote's documents held wrong when this store was restored
    /// from it (``Home/cloneStore(from:uid:options:mergeDriver:)``), computed again in a
    /// checkpoint that the next sync pushes; [] otherwise.
    public internal(set) var correctedOnRestore: [DerivedFieldMismatch] = []
    /// While a sync runs, its HTTP remotes by URL, so that its fetches and pushes share one
    /// connection (``connecting(to:credentials:timeout:opened:_:)``); nil otherwise.
    var keptRemotes: [String: Remote]?
    /// The device's clock, in milliseconds since 1970: what merges judge stamps from the
    /// future by (see `MergeContext`) and the time checkpoints are dated with. The system's
    /// clock by default; a test sets a device's clock ahead or behind, or to nil — unknown —
    /// for merges that depend on their three inputs only (checkpoints are then dated by the
    /// system's clock).
    public var clock: () -> Int64? = { Store.systemClock() }
    /// Where the store reports what it does (checkpoints, fetches, merges, pushes, with
    /// counts), as structured log lines.
    public var logger = Logger(label: "cairn")

    /// Selects Cairn's merge driver for every document, so `git merge` merges as Cairn does.
    static let gitAttributes = """
        # Documents merge field by field under the store's schema set (cairn merge-driver).
        *.json merge=cairn

        """
    /// The branch every store works on.
    public static let branch = "main"

    /// Opens the store of `uid` at `folder`. `checkingPacks: false` skips the check of its
    /// pack indexes, for reaching a damaged store's configuration and references.
    init(uid: String, folder: String, configuration: Configuration, checkingPacks: Bool = true) throws(CairnError) {
        self.uid = uid
        self.folder = folder
        self.configuration = configuration
        guard FileSystem.kind(folder + "/" + StoreLayout.identityFile) == .file else {
            throw CairnError(.notFound, "there is no store for user \(uid) at \(folder)", remedy: .createStore(uid: uid))
        }
        do {
            repository = try Repository(openingAt: folder, checkingPacks: checkingPacks)
        } catch {
            throw CairnError.git(error, doing: "cannot open the store at \(folder)")
        }
        lock = StoreLock(gitdir: repository.gitdir, timeout: configuration.lockTimeout, repairsCounts: true)
        journal = PendingJournal(path: repository.gitdir + StoreLayout.pendingFile)
        codec = try Self.codec(uid: uid, folder: folder, repository: repository, configuration: configuration)
    }

    /// Creates the repository, its configuration and its first commit: `.cairn/store.json`
    /// and the schema set's files in `.cairn/schema/`. An encrypted store's identity says so,
    /// and its documents are sealed with the configuration's keyring.
    static func create(
        uid: String, folder: String, schemaSet: SchemaSetFiles?,
        mergeDriver: String?, encrypted: Bool = false, configuration: Configuration
    ) throws(CairnError) -> Store {
        let keyring = encrypted ? try configuration.keys?.keyring() : nil
        if encrypted, keyring == nil {
            throw CairnError(
                .invalidInput, "an encrypted store needs a key, and none was given; nothing was created",
                remedy: .giveStoreKey(keyID: "new"))
        }
        let repository = try makeRepository(uid: uid, folder: folder, mergeDriver: mergeDriver)
        var identity: JSONObject = ["formatVersion": .integer(1), "uid": .string(uid)]
        if let schemaSet { identity["schemaSet"] = .string(schemaSet.name) }
        if let keyring {
            identity["encrypted"] = .bool(true)
            do {
                try repository.setConfig(keyIDConfigKey, to: keyring.current.id.description)
                if case .file(let path)? = configuration.keys {
                    try repository.setConfig(keyFileConfigKey, to: FileSystem.absolutePath(path))
                }
            } catch {
                throw CairnError.git(error, doing: "cannot record the key of the new store")
            }
        }
        try FileSystem.makeFolders(folder + "/" + StoreLayout.schemaFolder)
        try FileSystem.writeAtomically(JSONValue.object(identity).canonicalBytes(), to: folder + "/" + StoreLayout.identityFile)
        // A set with asset fields hands their pointers to Git LFS from the first commit.
        let assets = schemaSet.flatMap { try? SchemaSet(readingProgress: $0, then: "") }?.hasAssets == true
        let attributes = gitAttributes + (assets ? assetAttributesLines : "")
        try FileSystem.writeAtomically(Array(attributes.utf8), to: folder + "/" + StoreLayout.attributesFile)
        var written = [StoreLayout.identityFile, StoreLayout.attributesFile]
        for (name, bytes) in schemaSet?.files ?? [:] {
            try FileSystem.writeAtomically(bytes, to: folder + "/" + StoreLayout.schemaFolder + "/" + name)
            written.append(StoreLayout.schemaFolder + "/" + name)
        }
        let store = try Store(uid: uid, folder: folder, configuration: configuration)
        if encrypted, let mergeDriver {
            try store.translatingErrors("cannot configure git's diff for the new store") {
                try store.configureDiffOfSealedDocuments(executable: mergeDriver)
            }
        }
        try store.locked("cannot make the first checkpoint") {
            try store.journal.append(written)
            try store.commitPending(message: "Create the store of user \(uid)")
        }
        return store
    }

    /// Creates an empty repository for the store of `uid` with the store's configuration:
    /// its own committer identity, git's merge driver set to Cairn's, and temporary files
    /// kept out of `git status`.
    static func makeRepository(uid: String, folder: String, mergeDriver: String?) throws(CairnError) -> Repository {
        do {
            let repository = try Repository.create(at: folder, initialBranch: branch)
            try repository.setConfig("user.name", to: "Cairn")
            try repository.setConfig("user.email", to: "\(uid)@cairn.invalid")
            try repository.setConfig("cairn.uid", to: uid)
            try repository.setConfig("cairn.device", to: newDeviceID())
            if let mergeDriver {
                try repository.setConfig("merge.cairn.name", to: "Cairn: documents merged under the store's policies")
                try repository.setConfig("merge.cairn.driver", to: "'\(mergeDriver)' merge-driver %O %A %B %P")
            }
            // A write's temporary file never shows in `git status`, even after a crash.
            try FileSystem.makeFolders(repository.gitdir + "info")
            try FileSystem.appendLines(Array("\(StoreLayout.temporaryFilePrefix)*\n".utf8), to: repository.gitdir + "info/exclude")
            return repository
        } catch let error as CairnError {
            throw error
        } catch let error as GitError {
            throw CairnError.git(error, doing: "cannot create a store at \(folder)")
        } catch {
            throw CairnError(.io, "cannot create a store at \(folder): \(error)")
        }
    }

    /// The absolute path of a file of the working tree.
    package func absolute(_ relative: String) -> String { folder + "/" + relative }

    /// Refuses a document outside this user's tree (`users/<uid>` and below).
    func checkOwned(_ path: DocumentPath) throws(CairnError) {
        guard StoreLayout.isOwned(path, by: uid) else {
            throw outside(path.description)
        }
    }

    func checkOwned(_ path: CollectionPath) throws(CairnError) {
        guard StoreLayout.isOwned(path, by: uid) else {
            throw outside(path.description)
        }
    }

    private func outside(_ path: String) -> CairnError {
        let other = path.split(separator: "/").dropFirst().first.map(String.init)
        let remedy = other.flatMap { $0 == uid ? nil : CairnError.Remedy.switchUser($0) }
        return CairnError(.invalidInput, "\(path) is outside the store of user \(uid) (users/\(uid)/…)", remedy: remedy)
    }

    /// The committer of the store's checkpoints: the store's own identity from its config,
    /// never the machine's.
    func signature() -> Signature {
        let name = (try? repository.config("user.name")) ?? nil
        let email = (try? repository.config("user.email")) ?? nil
        return Signature(
            name: name ?? "Cairn", email: email ?? "\(uid)@cairn.invalid",
            time: (clock() ?? Self.systemClock()) / 1_000)
    }

    /// Runs `body` under the store's lock, turning libgit2 failures into store errors. A move
    /// of the working tree that a killed process left half done is finished first. Refuses,
    /// with nothing changed, while `HEAD` is off the store's branch. After a holder was
    /// killed, or failed half way through a write below a count, the counts above the
    /// pending documents are computed again first (``StoreLock/countsNeedRepair``). `documentsOnly`: `body`
    /// writes documents and nothing through libgit2 (see ``StoreLock/withLock(notingBusy:_:)``).
    package func locked<T>(_ what: String, documentsOnly: Bool = false, _ body: () throws -> T) throws(CairnError) -> T {
        try translatingErrors(what) {
            try lock.withLock(notingBusy: !documentsOnly) {
                try checkHeadOnBranch(what, trustingStamp: documentsOnly)
                forgetSchemaSetIfItsFolderChanged()
                try finishInterruptedMove(what)
                if lock.countsNeedRepair {
                    try repairCountsAfterKilledWrite()
                    lock.countsRepaired()
                }
                return try body()
            }
        }
    }

    /// Runs `body`, turning whatever it throws into a store error: libgit2's failures in the
    /// store's terms, anything else as an I/O failure of `what`.
    package func translatingErrors<T>(_ what: String, _ body: () throws -> T) throws(CairnError) -> T {
        do {
            return try body()
        } catch let error as CairnError {
            throw error
        } catch let error as GitError {
            throw CairnError.git(error, doing: what)
        } catch {
            throw CairnError(.io, "\(what): \(error)")
        }
    }
}
