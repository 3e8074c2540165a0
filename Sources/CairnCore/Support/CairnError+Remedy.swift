import CairnMerge

extension CairnError {
    /// The way out of a failure when it takes a step of the program that embeds the store —
    /// a command to run, an argument to give, a setting to change — named as a value, so
    /// each program words it in its own terms (the command line as `cairn …` commands and
    /// flags). ``description`` words it in plain terms, for programs that do not.
    public enum Remedy: Sendable, Hashable, CustomStringConvertible {
        /// The store's git files are damaged: repair it from its remote, keeping the
        /// documents not yet pushed (``Home/repairStore(_:from:options:mergeDriver:)``).
        case repair
        /// There is no store for the user: create it.
        case createStore(uid: String)
        /// No user is active: create one, or choose one.
        case createOrChooseUser
        /// The path belongs to another user of the home: act on that user's store instead.
        case switchUser(String)
        /// The other store holds writes not checkpointed: checkpoint them before importing.
        case checkpointBeforeImport(uid: String)
        /// The other store is at a newer schema version: migrate this one before importing.
        case migrateBeforeImport
        /// A revision is unknown: the store's history lists the checkpoints.
        case listCheckpoints
        /// There is no repository at the remote: create one for the user on the server.
        case createRemoteRepository
        /// The SSH server says there is no such repository: check the path, or create it.
        case checkPathOrCreateRemoteRepository
        /// The server refused the request: check the remote's URL and the server.
        case checkRemoteURL
        /// The store has no remote: set one.
        case setRemote
        /// Nothing to restore from: name a checkpoint, or set a remote.
        case nameRestoreSource
        /// The store has no commit: restore it from its remote by cloning.
        case cloneStore
        /// There is no store to repair: restore it from its remote by cloning.
        case cloneFromRemote
        /// A sync would replace a document edited by hand: checkpoint the edit (scanning the
        /// working tree), then sync again.
        case checkpointHandEdits
        /// Cannot tell whose progress a remote holds: name the user.
        case nameUser
        /// A store for the user exists already: sync it instead of cloning.
        case syncExistingStore(uid: String)
        /// The remote holds no progress yet: create the store with that remote, then sync.
        case createStoreWithRemote(uid: String, remote: RemoteURL)
        /// The remote holds another user's store: name the right user.
        case nameRightUser
        /// No user is active: name the store to repair.
        case nameStoreToRepair
        /// The store has no remote to repair it from: name one.
        case nameRepairRemote
        /// The remote refused documents of the push: take them back to the remote's version
        /// (``Store/restore(_:from:)``), keeping every other unpushed change, then sync again.
        case restoreDocuments([DocumentPath])
        /// The remote refused the credentials offered: check them.
        case checkCredentials
        /// The remote asks for credentials and none were given: give them.
        case giveCredentials
        /// A server's repositories were asked for no user: name at least one.
        case nameUsers
        /// The store is encrypted and the key given is not its key (or none was given): give
        /// the keyring that holds the key of that ID.
        case giveStoreKey(keyID: String)
        /// A Firestore export holds documents of other users: leave them out, or import the
        /// file into each user's own store.
        case skipOtherUsers(uid: String)
        /// A Firestore export in REST form needs the project its documents are named in.
        case nameFirestoreProject
        /// A content item is not on this device: download it (``ContentCache``).
        case downloadContent(collection: String, item: String)
        /// A content item is larger than the limit of one item: raise that limit.
        case raiseItemSizeLimit
        /// A content item does not fit beside the items holding answers not yet synced: sync
        /// them, or raise the limits.
        case syncOrRaiseContentLimits
        /// A document's asset field points to an asset the store does not hold: add its file.
        case addAsset(path: DocumentPath, field: String)
        /// An asset is nowhere to be had: clear the field that points to it.
        case removeAsset(path: DocumentPath?, field: String?)
        /// There is no document to attach an asset to: put the document with the asset.
        case putWithAsset(path: DocumentPath, field: String)
        /// A downloaded item cannot be read: download it again.
        case downloadContentAgain(collection: String, item: String)
        /// No such content item: check its name against what is downloaded; then what was
        /// not done (`consequence`).
        case checkContentName(consequence: String)
        /// Answers to a deleted item cannot be submitted: discard them (kept in history).
        case discardAnswers(collection: String, item: String)
        /// A set of shared content, or a content repository, belongs to a collection the
        /// server serves: make it one there; then what was not done (`consequence`).
        case serveContentCollection(consequence: String?)

        /// How the remedy joins the message it follows.
        public var separator: String {
            switch self {
            case .restoreDocuments: " — "
            case .checkCredentials, .giveCredentials, .nameUsers, .giveStoreKey: ": "
            case .addAsset, .removeAsset, .putWithAsset: "; "
            default: "; "
            }
        }

        /// The remedy in plain terms, without the separator.
        public var plainWords: String {
            switch self {
            case .repair: "repair the store from its remote, keeping the documents not yet pushed"
            case .createStore: "create it first"
            case .createOrChooseUser: "create a store, or choose an active user"
            case .switchUser(let uid): "act on the store of user \(uid) instead"
            case .checkpointBeforeImport(let uid): "checkpoint the store of \(uid) first — nothing was imported"
            case .migrateBeforeImport: "migrate this store to that version first — nothing was imported"
            case .listCheckpoints: "the store's history lists the checkpoints"
            case .createRemoteRepository: "create the user's repository on the server"
            case .checkPathOrCreateRemoteRepository: "check the path, or create the user's repository on the server"
            case .checkRemoteURL: "check the remote's URL and the server's configuration"
            case .setRemote: "set one first"
            case .nameRestoreSource: "name a checkpoint to restore from, or set a remote"
            case .cloneStore: "restore it from its remote"
            case .cloneFromRemote: "restore it from its remote"
            case .checkpointHandEdits: "checkpoint the edit (scanning for hand edits), then sync again"
            case .nameUser: "name the user"
            case .syncExistingStore: "sync it instead"
            case .createStoreWithRemote: "create the store with that remote, then sync"
            case .nameRightUser: "name the right user"
            case .nameStoreToRepair: "name the store to repair"
            case .nameRepairRemote: "name the remote to repair it from"
            case .restoreDocuments(let documents):
                "take \(documents.count == 1 ? "that document" : "those documents") back to the remote's version, keeping every other unpushed change, then sync again"
            case .checkCredentials: "check the credentials"
            case .giveCredentials: "give credentials (or put the user in the URL)"
            case .nameUsers: "give the users whose repositories to create"
            case .giveStoreKey(let keyID): "give the store's key (key \(keyID)) — nothing was read or written"
            case .skipOtherUsers(let uid): "leave the documents of other users out, or import the file into the store of \(uid)"
            case .nameFirestoreProject: "name the Firestore project (and database) the documents belong to"
            case .downloadContent: "download it first"
            case .raiseItemSizeLimit: "raise the limit of one item's size; nothing was downloaded"
            case .syncOrRaiseContentLimits: "sync them first, or raise the limits; nothing was downloaded"
            case .addAsset: "add the asset's file first — nothing was written"
            case .removeAsset: "clear the field that points to it — nothing was pushed"
            case .putWithAsset(_, let field): "put the document with its \(field) asset attached"
            case .downloadContentAgain: "download it again"
            case .checkContentName(let consequence): "check the name against what is downloaded; \(consequence)"
            case .discardAnswers: "discarding them puts them aside, kept in history"
            case .serveContentCollection(let consequence):
                "serve the collection from the server, as shared content" + (consequence.map { "; " + $0 } ?? "")
            }
        }

        /// The separator, then the plain words: what follows the message in
        /// ``CairnError/description``.
        public var description: String { separator + plainWords }
    }
}
