import CairnMerge
import Git
import GitFormat

extension Store {
    /// The error for a push `remote` refused saying `reason`, when the store was to move it
    /// from `remoteCommit` to `local`: it names the way out. The documents the push would
    /// change that the reason names are the refused ones; `cairn restore` takes them back to
    /// the remote's version in a new checkpoint (an append-only attempt the remote never
    /// received included), keeping every other unpushed document. `checkedHere`: the store
    /// found what the server's hook would refuse, and sent nothing.
    func pushRefusal(_ reason: String, by remote: RemoteURL, local: ObjectID, remoteCommit: ObjectID?,
                     checkedHere: Bool = false) throws -> CairnError {
        let ours = try repository.commit(local).treeID
        let theirs = try remoteCommit.map { try repository.commit($0).treeID }
        let documents = try repository.differences(among: [theirs, ours])
            .compactMap { DocumentPath(fileName: $0.path) }
            .filter { Self.text(reason, names: $0) }
            .sorted()
        let wayOut: String
        if documents.isEmpty {
            wayOut = "fix what it names, then sync again"
        } else {
            let which = documents.count == 1 ? "that document" : "those documents"
            let command = (["cairn", "restore"] + documents.map { Self.shellWord($0.description) }).joined(separator: " ")
            wayOut = "to take \(which) back to the remote's version, keeping every other unpushed change, run: \(command), then sync again"
        }
        let refused = checkedHere ? "the push to \(remote) breaks the server's rules, and was not sent" : "\(remote) refused the push"
        return CairnError(.refused, "\(refused): \(reason); the store is back on its last checkpoint — \(wayOut)",
                          cause: PushRefusal(reason: reason, documents: documents))
    }

    /// Whether `text` names `document` as a whole path: not a longer path or ID that starts
    /// the same, nor its file (`….json`, which a per-commit rule names).
    static func text(_ text: String, names document: DocumentPath) -> Bool {
        let path = Array(document.description.utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= path.count else { return false }
        let before: Set<UInt8> = Set(" (\"'`,;:".utf8)
        let after: Set<UInt8> = Set(" :;,)\"'`".utf8)
        var start = 0
        while start + path.count <= bytes.count {
            if bytes[start..<start + path.count].elementsEqual(path),
               start == 0 || before.contains(bytes[start - 1]),
               start + path.count == bytes.count || after.contains(bytes[start + path.count]) {
                return true
            }
            start += 1
        }
        return false
    }

    /// `word` as a shell reads it back: as it is when it holds only characters no shell
    /// treats specially, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "/_.+-@%=:,".unicodeScalars.contains(scalar))
        }
        return plain && !word.isEmpty ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
