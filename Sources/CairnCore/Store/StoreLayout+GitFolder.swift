import CairnMerge

/// What Cairn keeps in a repository's git folder, beside git's own files, named from that
/// folder: in a store, `cairn/` holds the journal of pending writes, the note of a move of
/// the working tree under way, the spare file of writes in place, the lock, the note of
/// what Cairn last left, the content versions the last sync held back and the Firestore types
/// imports remembered, and `refs/cairn/imports/` the branches of the stores it imported; in a
/// server's bare repository, `cairn/` holds the schema set the hook checks pushes against.
/// None of it is in any commit.
extension StoreLayout {
    /// The paths written since the last checkpoint (``PendingJournal``).
    package static let pendingFile = "cairn/pending"
    /// `<from> <to>` while the working tree moves to another commit.
    package static let movingFile = "cairn/moving"
    /// The file a write in place renames over a document (``FileSystem/replaceContents(of:with:spare:)``).
    package static let spareFile = "cairn/spare"
    /// The store's lock (``StoreLock``).
    package static let lockFile = "cairn/lock"
    /// The branch's commit and the index's stamp as Cairn last left them.
    package static let seenFile = "cairn/seen"
    /// The pinned versions the last sync held back (``PinCheck``), which the decisions read.
    package static let heldPinsFile = "cairn/held-pins.json"
    /// The Firestore types imports brought in where the schema set gives none
    /// (`FirestoreRememberedTypes`, in CairnFirestore), which exports write again.
    package static let firestoreTypesFile = "cairn/firestore-types.json"
    /// The lock a device holds on a bare repository at a path while it pushes there.
    package static let pushLockFile = "cairn-push.lock"
    /// The lock a device holds on a bare repository at a path while it merges its small
    /// packs after a push; never waited for.
    package static let combineLockFile = "cairn-combine.lock"
    /// On a server, the schema set the hook checks pushes against, whatever they carry.
    package static let serverSchemaFolder = "cairn/schema"
    /// Cairn's folder in the git folder, where all of the above but the push lock live.
    package static let sideFolder = "cairn/"

    /// The reference an import of `uid`'s store fetches that store's branch to.
    package static func importReference(of uid: String) -> String {
        "refs/cairn/imports/\(uid)"
    }
}
