import CairnMerge

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store {
    /// The trailer of a conflict record sealed in an encrypted store's merge commit:
    /// `Cairn-Conflict-Sealed: <base64 of the record's JSON, sealed>`.
    static let sealedConflictTrailer = "Cairn-Conflict-Sealed"

    /// What a commit message says of the records a merge decided: the lines for people and
    /// the trailers `cairn conflicts` reads. An encrypted store's messages hold no value of
    /// its documents: the lines name the document, pointer and policy only, and each record
    /// is a sealed trailer, opened where the key is.
    func conflictText(_ records: [ConflictRecord]) throws(CairnError) -> (lines: [String], trailers: [String]) {
        guard codec.isEncrypted else {
            return (records.map { "  \($0)" }, records.map { "\(Self.conflictTrailer): \($0.jsonValue.inlineText)" })
        }
        var lines: [String] = []
        var trailers: [String] = []
        for record in records {
            let place = (record.document.map(\.description) ?? "") + "#" + record.pointer
            lines.append(
                "  \(place) [\(record.policy)] decided; the values are sealed (the store's conflicts, read with its key, show them)")
            let sealed = try codec.stored(Array(record.jsonValue.inlineText.utf8), at: Self.conflictSealingPath(of: record))
            trailers.append("\(Self.sealedConflictTrailer): \(Data(sealed).base64EncodedString())")
        }
        return (lines, trailers)
    }

    /// The path a conflict record is sealed for: beside its document, never a document's own.
    private static func conflictSealingPath(of record: ConflictRecord) -> String {
        ".cairn/conflicts/" + (record.document?.fileName ?? "value") + "#" + record.pointer
    }

    /// The records of a commit message: plain trailers, and sealed ones this store's keys open.
    func conflictRecords(in message: String) -> [ConflictRecord] {
        var records = Self.conflictRecords(in: message)
        guard let cipher = codec.cipher else { return records }
        let prefix = Self.sealedConflictTrailer + ": "
        for line in message.split(separator: "\n") where line.hasPrefix(prefix) {
            guard let data = Data(base64Encoded: String(line.dropFirst(prefix.count))),
                let opened = try? cipher.open([UInt8](data)),
                opened.path.hasPrefix(".cairn/conflicts/"),
                let value = try? JSONParser().parse(opened.document),
                let record = ConflictRecord(json: value)
            else { continue }
            records.append(record)
        }
        return records
    }

    /// A derived field computed again, as a commit message lists it: with the values found
    /// and expected, but for an encrypted store, whose messages hold no value of its documents.
    func describedInHistory(_ mismatch: DerivedFieldMismatch) -> String {
        guard codec.isEncrypted else { return mismatch.described(verb: "was") }
        return "\(mismatch.document): derived field \(mismatch.field) computed again (\(mismatch.schemaFile))"
    }
}
