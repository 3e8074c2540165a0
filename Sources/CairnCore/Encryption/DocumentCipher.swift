import CairnMerge
import Crypto
import _CryptoExtras

/// Deterministic authenticated encryption of a document's bytes, bound to its path: what an
/// encrypted store writes as the document's blob instead of its canonical JSON.
///
/// ## The scheme (format 1)
///
/// From the store key `K` (``StoreKey``), HKDF-SHA256 derives two independent subkeys, one
/// per `info` label: `encryptionKey` ("cairn document cipher 1: encryption") and `nonceKey`
/// ("cairn document cipher 1: nonce"). A document `P` at the path `p` (its file's path in
/// the store's tree, `users/u1/books/b1.json`) is sealed as
///
/// ```
/// nonce  = HMAC-SHA256(nonceKey, p ‖ 0x00 ‖ P)[0..<12]
/// header = "CAIRN" 0x00 ‖ version (0x01) ‖ ID(K) (8 bytes) ‖ length of p (2 bytes, big-endian) ‖ p
/// sealed = header ‖ nonce ‖ AES-256-GCM-SIV(encryptionKey, nonce, P, aad: header)  (ciphertext ‖ 16-byte tag)
/// ```
///
/// Why this way:
/// - **Deterministic**, so devices converge: the same document at the same path under the
///   same key is the same bytes, hence the same blob and tree ids on every device, and an
///   unchanged document is not a change. The nonce is a keyed hash of everything sealed (the
///   synthetic-IV construction), so it differs whenever the path or the bytes differ.
/// - **AES-GCM-SIV** (RFC 8452) because it is made for nonces that may repeat: here a nonce
///   repeats exactly when the path and the document do, and then all it gives away is that
///   the two are equal — which equal blob ids say anyway. Any other repeat (two inputs
///   whose truncated HMACs collide, a chance of about n²/2⁹⁷ for n documents) likewise
///   reveals only whether the two plaintexts are equal.
/// - **The path is named and authenticated** (in the header, which is the associated data)
///   and hashed into the nonce: a blob moved to another path fails to open instead of
///   passing for that document, and two paths holding equal documents do not show it. The
///   header names the path because git's diff tools hand a blob to a text converter without
///   it (``open(_:)``); paths are readable in the tree anyway. The 0x00 between path and document cannot
///   be part of a path, so no two (path, document) pairs hash the same bytes.
/// - **The header is authenticated too**: its magic bytes let a reader tell a sealed document
///   from a plain one (the 0x00 also makes git treat it as binary, never printing it as
///   text), its version lets a later format be read beside this one, and its key ID tells a
///   ``Keyring`` which key to open it with, or the error which key is missing.
/// - **Two subkeys from HKDF**, so the key that makes nonces never encrypts and the store key
///   itself is used by neither.
/// - Opening also recomputes the nonce from the opened document and the path, and refuses a
///   blob whose nonce differs: only what this scheme makes is read, so whatever a device
///   reads, it would write back as the same blob.
///
/// Every primitive is swift-crypto's (HKDF, HMAC, SHA-256, and AES-GCM-SIV from
/// `_CryptoExtras`, over BoringSSL). Paths are not encrypted: they carry the store's
/// structure and the rules a server applies to them.
public struct DocumentCipher: Sendable {
    /// The keys this cipher seals with (the current one) and opens with (all of them).
    public let keyring: Keyring
    /// The derived keys of each key of the keyring.
    private let subkeys: [StoreKey.ID: Subkeys]
    /// The derived keys of the current key.
    private let sealingKeys: Subkeys

    /// A cipher that seals with the keyring's current key and opens with any of its keys.
    public init(keyring: Keyring) {
        self.keyring = keyring
        var subkeys: [StoreKey.ID: Subkeys] = [:]
        for key in keyring.keys {
            subkeys[key.id] = Subkeys(deriving: key)
        }
        self.subkeys = subkeys
        sealingKeys = Subkeys(deriving: keyring.current)
    }

    /// A cipher of one key.
    public init(key: StoreKey) {
        self.init(keyring: Keyring(current: key))
    }

    /// The document `plaintext` (its canonical JSON) sealed for the file `path` of the store's
    /// tree, under the current key: the same bytes for the same document, path and key.
    public func seal(_ plaintext: [UInt8], at path: String) throws(CairnError) -> [UInt8] {
        let pathBytes = try Self.checked(path)
        let header = Self.header(keyID: keyring.current.id, path: pathBytes)
        let nonce = sealingKeys.nonce(path: pathBytes, plaintext: plaintext)
        do {
            let box = try AES.GCM._SIV.seal(
                plaintext, using: sealingKeys.encryptionKey, nonce: AES.GCM._SIV.Nonce(data: nonce),
                authenticating: header)
            return header + Array(box.combined)
        } catch {
            // Only a key or nonce of the wrong size fails, and both sizes are fixed here.
            throw CairnError(.invalidInput, "cannot encrypt \(path): \(error)")
        }
    }

    /// The document of a file of the store's tree (`users/u1/books/b1.json`) sealed under the
    /// current key.
    public func seal(_ plaintext: [UInt8], at path: DocumentPath) throws(CairnError) -> [UInt8] {
        try seal(plaintext, at: path.fileName)
    }

    /// The document that `sealed` holds, when it was sealed for `path` by a key of the
    /// keyring and is unaltered. Otherwise one error says which: not encrypted, a format
    /// this version does not read, cut short, sealed by a key the keyring lacks (named by
    /// its ID), or failing authentication (altered, or sealed for another path).
    public func open(_ sealed: [UInt8], at path: String) throws(CairnError) -> [UInt8] {
        let pathBytes = try Self.checked(path)
        let parts = try Self.parts(of: sealed, at: path)
        guard parts.path == path else {
            throw CairnError(
                .corrupt,
                "cannot decrypt \(path): it was encrypted for \(parts.path) — a blob moved from another path; restore it from the store's history or its remote"
            )
        }
        return try open(parts, at: pathBytes)
    }

    /// The path a sealed document names in its header and the document, opened at that
    /// path: for a reader given the blob without its path (git's text converters).
    public func open(_ sealed: [UInt8]) throws(CairnError) -> (path: String, document: [UInt8]) {
        let parts = try Self.parts(of: sealed, at: nil)
        let pathBytes = try Self.checked(parts.path)
        return (parts.path, try open(parts, at: pathBytes))
    }

    private func open(_ parts: (header: [UInt8], keyID: StoreKey.ID, path: String, box: [UInt8]), at pathBytes: [UInt8]) throws(CairnError)
        -> [UInt8]
    {
        let path = parts.path
        guard let keys = subkeys[parts.keyID] else {
            let known = keyring.keys.map(\.id.description).joined(separator: ", ")
            throw CairnError(
                .notFound,
                "cannot decrypt \(path): it was encrypted with key \(parts.keyID), which is not among the keys given (\(known)); give the key file or keyring that holds key \(parts.keyID)",
                cause: MissingStoreKey(keyID: parts.keyID))
        }
        let plaintext: [UInt8]
        do {
            let box = try AES.GCM._SIV.SealedBox(combined: parts.box)
            plaintext = Array(try AES.GCM._SIV.open(box, using: keys.encryptionKey, authenticating: parts.header))
        } catch {
            throw Self.unauthentic(path, keyID: parts.keyID)
        }
        // Only what this scheme makes is read: the nonce is the one sealing would compute.
        guard keys.nonce(path: pathBytes, plaintext: plaintext) == Array(parts.box.prefix(Self.nonceByteCount)) else {
            throw Self.unauthentic(path, keyID: parts.keyID)
        }
        return plaintext
    }

    /// The document of a file of the store's tree (`users/u1/books/b1.json`), opened.
    public func open(_ sealed: [UInt8], at path: DocumentPath) throws(CairnError) -> [UInt8] {
        try open(sealed, at: path.fileName)
    }

    private static func unauthentic(_ path: String, keyID: StoreKey.ID) -> CairnError {
        CairnError(
            .corrupt,
            "cannot decrypt \(path): it fails authentication under key \(keyID) — it was altered, or encrypted for another path; restore it from the store's history or its remote"
        )
    }

    /// The path's bytes, refused when empty or when it holds a 0x00 (which separates the path
    /// from the document in the nonce's input, and which no path of a git tree holds).
    private static func checked(_ path: String) throws(CairnError) -> [UInt8] {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else {
            throw CairnError(
                .invalidInput,
                "cannot encrypt or decrypt at the path \(path.debugDescription): a document's path is not empty and holds no NUL byte")
        }
        guard bytes.count <= maxPathByteCount else {
            throw CairnError(
                .invalidInput,
                "cannot encrypt or decrypt at a path of \(bytes.count) bytes: a sealed document's header names paths of at most \(maxPathByteCount) bytes"
            )
        }
        return bytes
    }
}
