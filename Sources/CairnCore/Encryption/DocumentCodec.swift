import CairnMerge

/// What a store's document files hold for a document: its canonical JSON in a plain store,
/// the JSON sealed by ``DocumentCipher`` in an encrypted one. Every read of a document's file
/// or blob and every write of one goes through here, so an encrypted store never holds its
/// documents in the clear — not in git's objects, not in the working tree.
public struct DocumentCodec: Sendable {
    /// The cipher of an encrypted store; nil for a plain one.
    public let cipher: DocumentCipher?

    /// A plain store's: the bytes are the JSON.
    public static let plain = DocumentCodec(cipher: nil)

    public init(cipher: DocumentCipher?) {
        self.cipher = cipher
    }

    /// Whether documents are sealed.
    public var isEncrypted: Bool { cipher != nil }

    /// The bytes the file `file` of the store's tree holds for the canonical JSON `json`.
    public func stored(_ json: [UInt8], at file: String) throws(CairnError) -> [UInt8] {
        guard let cipher else { return json }
        return try cipher.seal(json, at: file)
    }

    /// The JSON that the file `file` of the store's tree holds in `stored`; refused, in an
    /// encrypted store, when it is not sealed for that path by one of the keyring's keys.
    public func json(_ stored: [UInt8], at file: String) throws(CairnError) -> [UInt8] {
        guard let cipher else { return stored }
        return try cipher.open(stored, at: file)
    }

    /// The document the file `file` holds, parsed; `what` names it in the message of a
    /// document that is not valid JSON.
    public func document(_ stored: [UInt8], at file: String, what: String? = nil) throws(CairnError) -> JSONValue {
        let bytes = try json(stored, at: file)
        do {
            return try JSONParser().parse(bytes)
        } catch {
            throw CairnError(
                .corrupt, "\(what ?? file) is not a valid document (\(error.description)); fix the file or restore it from history",
                cause: error)
        }
    }
}
