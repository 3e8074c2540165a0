import CairnCore
import CairnMerge

extension CairnError {
    /// The line the tool prints after `cairn: `: the message, then the remedy as the
    /// commands and flags of this tool.
    public var commandLineMessage: String {
        guard let remedy else { return message }
        return message + remedy.separator + remedy.commandLineWords
    }
}

extension CairnError.Remedy {
    /// The remedy as what to type: `cairn …` commands, flags and variables.
    public var commandLineWords: String {
        switch self {
        case .repair: "run cairn repair to restore it from its remote, keeping the documents not yet pushed"
        case .createStore(let uid): "create it with: cairn init \(uid)"
        case .createOrChooseUser: "create one with: cairn init UID (or pick one with: cairn use UID)"
        case .switchUser(let uid): "switch with --user \(uid) or cairn use \(uid)"
        case .checkpointBeforeImport(let uid): "run cairn --user \(uid) checkpoint first — nothing was imported"
        case .migrateBeforeImport: "move this store to that version first (cairn migrate --schema SET) — nothing was imported"
        case .listCheckpoints: "see cairn log for the checkpoints"
        case .createRemoteRepository: "create it with: cairn server init FOLDER UID"
        case .checkPathOrCreateRemoteRepository: "check the path, or create it with: cairn server init FOLDER UID"
        case .checkRemoteURL: "check the URL (cairn remote set URL) and the server's configuration"
        case .setRemote: "set one with: cairn remote set URL"
        case .nameRestoreSource: "name a checkpoint with --source REV (see cairn log), or set a remote with cairn remote set URL"
        case .cloneStore: "restore it with cairn clone"
        case .cloneFromRemote: "restore it with: cairn clone URL"
        case .checkpointHandEdits: "record the edit with cairn checkpoint --scan, then sync again"
        case .nameUser: "name the user with --user UID"
        case .syncExistingStore(let uid): "sync it with: cairn --user \(uid) sync"
        case .createStoreWithRemote(let uid, let remote): "create the store with: cairn init \(uid) --remote \(remote), then cairn sync"
        case .nameRightUser: "give the right --user"
        case .nameStoreToRepair: "name the store to repair with --user UID"
        case .nameRepairRemote: "name one with --from URL"
        case .restoreDocuments(let documents):
            "to take \(documents.count == 1 ? "that document" : "those documents") back to the remote's version, keeping every other unpushed change, run: "
                + (["cairn", "restore"] + documents.map { Self.shellWord($0.description) }).joined(separator: " ")
                + ", then sync again"
        case .checkCredentials: "check CAIRN_USERNAME and CAIRN_PASSWORD"
        case .giveCredentials: "set CAIRN_USERNAME and CAIRN_PASSWORD (or put the user in the URL)"
        case .nameUsers: "cairn server init FOLDER UID…"
        case .giveStoreKey(let keyID):
            "set CAIRN_KEY_FILE to the key file that holds key \(keyID) (or CAIRN_KEY to its text) — nothing was read or written"
        case .skipOtherUsers(let uid):
            "leave them out with --skip-other-users, or import the file into their store: cairn --user \(uid) import-firestore FILE"
        case .nameFirestoreProject: "give --project P (and --database D; (default) otherwise), or --shape node, which names no project"
        case .downloadContent(let collection, let item):
            "download it with: cairn content download \(Self.shellWord(collection)) \(Self.shellWord(item))"
        case .raiseItemSizeLimit: "raise it with cairn content limits --item-size; nothing was downloaded"
        case .syncOrRaiseContentLimits: "sync them first, or raise the limits with cairn content limits; nothing was downloaded"
        case .addAsset(let path, let field):
            "add the file with cairn asset add \(Self.shellWord(path.description)) \(Self.shellWord(field)) FILE — nothing was written"
        case .removeAsset(let path, let field):
            "clear it with cairn asset rm \(path.map { Self.shellWord($0.description) } ?? "PATH") \(field.map(Self.shellWord) ?? "FIELD") — nothing was pushed"
        case .downloadContentAgain(let collection, let item):
            "cairn content download \(Self.shellWord(collection)) \(Self.shellWord(item)) fetches it again"
        case .checkContentName(let consequence): "check the name (cairn content ls lists what is downloaded); \(consequence)"
        case .serveContentCollection(let consequence):
            "serve the collection with cairn server content init" + (consequence.map { "; " + $0 } ?? "")
        case .discardAnswers(let collection, let item):
            "cairn content discard \(Self.shellWord(collection)) \(Self.shellWord(item)) puts them aside, kept in history"
        case .putWithAsset(let path, let field):
            "put it with the asset attached (cairn put \(Self.shellWord(path.description)) FILE --asset \(Self.shellWord(field))=ASSET)"
        }
    }

    /// `word` as a shell reads it back: as it is when it holds only characters no shell
    /// treats specially, else in single quotes.
    public static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "/_.+-@%=:,".unicodeScalars.contains(scalar))
        }
        return plain && !word.isEmpty
            ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
