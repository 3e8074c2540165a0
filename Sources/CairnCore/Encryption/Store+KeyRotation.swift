import CairnMerge
import CairnSystem
import Git

extension Store {
    /// The trailer that records a rotation in its checkpoint: `Cairn-Key-Rotation: <old> -> <new>`.
    public static let keyRotationTrailer = "Cairn-Key-Rotation"

    /// Rotates an encrypted store to `keyring`'s current key: every current document is sealed
    /// again with it, in one checkpoint whose message says so (with the trailer
    /// `Cairn-Key-Rotation: <old ID> -> <new ID>`); writes not yet checkpointed are
    /// checkpointed first, under the old key. History keeps its blobs: `keyring` must still
    /// hold the key that sealed them (``Keyring/rotated(to:)`` keeps every earlier key).
    ///
    /// Append-only documents keep the key they were written with. They never change, and the
    /// server holds them to that by blob id, which it can compare without the key; sealed
    /// again they would be new blobs. Their bytes under the old key are in the history
    /// anyway, as every document's are: a rotation protects what is written after it.
    ///
    /// Keep `keyring` before calling this (in Keychain or KeyStore, or in the key file, as
    /// `cairn key rotate` does): once the documents are sealed with its key, that key is the
    /// only way to read them.
    @discardableResult
    public func rotateKey(to keyring: Keyring) throws(CairnError) -> CheckpointResult {
        guard let cipher = codec.cipher else {
            throw CairnError(.invalidInput, "the store of user \(uid) is not encrypted: it has no key to rotate")
        }
        let old = cipher.keyring.current.id
        let new = keyring.current.id
        guard new != old else {
            throw CairnError(.invalidInput, "key \(new) seals the store of user \(uid) already; rotate to a new key")
        }
        for key in cipher.keyring.keys where keyring.key(withID: key.id) == nil {
            throw CairnError(
                .invalidInput,
                "the new keyring lacks key \(key.id), which opens part of the history of user \(uid); keep every earlier key in it — nothing was changed"
            )
        }
        return try locked("cannot rotate the key of the store of user \(uid)") { () throws -> CheckpointResult in
            try commitPending(message: nil)
            let sealing = DocumentCodec(cipher: DocumentCipher(keyring: keyring))
            var paths = documents(under: StoreLayout.documentsFolder(of: uid)).map(\.fileName)
            if FileSystem.kind(absolute(StoreLayout.userFile(of: uid))) == .file {
                paths.append(StoreLayout.userFile(of: uid))
            }
            let set = try schemaSet()
            var resealed = 0
            var kept = 0
            for file in paths.sorted() {
                if let path = DocumentPath(fileName: file), set.kind(of: path)?.policy.isAppendOnly == true {
                    kept += 1
                    continue
                }
                guard let stored = try FileSystem.read(absolute(file)) else { continue }
                let json = try codec.json(stored, at: file)
                let sealed = try sealing.stored(json, at: file)
                guard sealed != stored else { continue }
                try journal.append([file])
                try FileSystem.replaceContents(of: absolute(file), with: sealed, spare: repository.gitdir + StoreLayout.spareFile)
                resealed += 1
            }
            codec = sealing
            documentCache.removeAll()
            try repository.setConfig(Self.keyIDConfigKey, to: new.description)
            let message = """
                Rotate the store's key to \(new)

                \(resealed) document\(resealed == 1 ? "" : "s") sealed again with key \(new); key \(old) still opens the history\(kept == 0 ? "" : ", and the \(kept) append-only document\(kept == 1 ? "" : "s"), which never change\(kept == 1 ? "s" : "")").

                \(Self.keyRotationTrailer): \(old) -> \(new)

                """
            return try commitPending(message: message)
        }
    }
}
