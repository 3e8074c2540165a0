import CairnMerge
import CairnSystem
import Git
import GitFormat

extension RepositoryMergeSource {
    /// The documents both sides changed, read, parsed and merged on two threads when there
    /// are enough of them: one with the store's handle, the other with a handle it opens
    /// itself (``SecondHandle``), each taking the next few documents until none are left
    /// (the two cores of a machine are not always as fast as each other). Reading, parsing
    /// and merging are most of a merge's time, and each document is merged apart from the
    /// others; what a thread parsed is freed by it.
    ///
    /// The second handle sees the repository's folders only: a document with a blob it does
    /// not find (one an audit keeps in the store's handle's memory) is done again by the
    /// store's handle, which also gives the error of a blob that holds no document. So the
    /// results and the failure are those of doing it one by one. A hook's repository, whose
    /// pushed objects wait in a quarantine, gets no second handle: it merges one by one.
    func merging<Merged: Sendable>(
        _ documents: [(path: DocumentPath, versions: [ObjectID?])],
        _ merge: @escaping @Sendable (DocumentPath, [JSONValue?]) -> Merged
    ) throws -> [Merged] {
        let versions = documents.reduce(0) { $0 + $1.versions.count { $0 != nil } }
        guard versions >= Self.versionsWorthASecondThread, documents.count >= 2, !secondHandle.isUnavailable else {
            return try documents.map { try Self.merge($0, in: self, merge) }
        }
        let handles = LaneRepositories([repository])
        let (codec, secondHandle) = (codec, secondHandle)
        let shared = SharedMerges<Merged>(count: documents.count)
        Syscalls.inTwoThreads { lane in
            // The second thread opens its handle itself (at the first batch) while the first
            // merges; without one, the first thread does every document.
            guard let handle = lane == 0 ? handles.handle(0) : secondHandle.handle else { return }
            let source = RepositoryMergeSource(repository: handle, codec: codec)
            while let positions = shared.next(Self.documentsPerTurn) {
                for position in positions {
                    do {
                        shared.record(position, .merged(try Self.merge(documents[position], in: source, merge)))
                    } catch {
                        shared.record(position, .failed(error, byTheStoresHandle: lane == 0))
                        return
                    }
                }
            }
        }
        // In order: a failure of the store's handle is the answer once everything before it
        // is done; what the other handle failed, or nobody reached, is done here.
        var merged: [Merged] = []
        merged.reserveCapacity(documents.count)
        for (position, outcome) in shared.outcomes().enumerated() {
            switch outcome {
            case .merged(let result)?:
                merged.append(result)
            case .failed(let error, byTheStoresHandle: true)?:
                throw error
            case .failed(_, byTheStoresHandle: false)?, nil:
                merged.append(try Self.merge(documents[position], in: self, merge))
            }
        }
        return merged
    }

    /// From how many versions to read a second thread shares the documents: below, opening
    /// a second handle costs more than it saves.
    static let versionsWorthASecondThread = 48

    /// How many documents a thread takes at a time.
    static let documentsPerTurn = 8

    /// Stores the document's canonical bytes as the store keeps them (sealed, in an encrypted
    /// store).
    func write(_ document: JSONValue?, canonicalBytes: [UInt8], at path: DocumentPath) throws -> ObjectID {
        try repository.writeBlob(codec.stored(canonicalBytes, at: path.fileName))
    }

    /// The bytes are enough.
    var writesFromBytesAlone: Bool { true }

    /// One document: its versions read from `source`, then merged.
    private static func merge<Merged>(
        _ document: (path: DocumentPath, versions: [ObjectID?]), in source: RepositoryMergeSource,
        _ merge: (DocumentPath, [JSONValue?]) -> Merged
    ) throws -> Merged {
        let values = try document.versions.map { version in try version.map { try source.document(in: $0, at: document.path) } }
        return merge(document.path, values)
    }
}
