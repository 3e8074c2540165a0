import CairnMerge
import Git
import GitFormat

extension PushRules {
    /// Whether the append-only document at `document` changed from the blob `was` to `now`
    /// by clearing asset fields only (the one change such a document takes). False when the
    /// documents cannot be read (an encrypted store's server), or it was deleted.
    func clearsAssetsOnly(
        _ document: DocumentPath, kind: SchemaSet.Kind, was: ObjectID, now: ObjectID?,
        codec: DocumentCodec?
    ) throws -> Bool {
        guard !kind.assets.isEmpty, let now, let codec else { return false }
        let parser = JSONParser()
        guard let before = try? parser.parse(codec.json(repository.blobContent(was), at: document.fileName)),
            let after = try? parser.parse(codec.json(repository.blobContent(now), at: document.fileName))
        else { return false }
        return kind.onlyClearsAssets(from: before, to: after)
    }

    /// The refusals about assets: for each document whose asset fields or pointers changed,
    /// the pointers of the new tree must be those its fields make; and on a server, each
    /// asset the new tree names that the old one did not must be in the asset storage.
    func assetRefusals(
        of documents: [DocumentPath], oldTree: ObjectID?, newTree: ObjectID, set: SchemaSet?,
        codec: DocumentCodec?
    ) throws -> [String] {
        guard !documents.isEmpty else { return [] }
        var refusals: [String] = []
        var named: [AssetReference: String] = [:]
        for document in documents {
            let present = try repository.assetPointerFiles(of: document, inTree: newTree)
            guard let codec else {
                // An encrypted store's server reads no document: no asset may be named.
                if let pointer = present.keys.min() {
                    refusals.append("\(pointer): an encrypted store holds no assets (their bytes would not be encrypted)")
                }
                continue
            }
            let entry = try repository.entry(at: document.fileName, inTree: newTree)
            let value = entry.flatMap { entry -> JSONValue? in
                guard !entry.isTree else { return nil }
                return try? JSONParser().parse(codec.json(repository.blobContent(entry.id), at: document.fileName))
            }
            let expected = set?.assetPointers(of: value, at: document) ?? [:]
            for (pointer, id) in present.sorted(by: { $0.key < $1.key }) {
                let bytes = try repository.blobContent(id)
                guard let wanted = expected[pointer] else {
                    refusals.append(
                        "\(pointer) names an asset that no field of \(document) holds: the pointers in \(StoreLayout.assetsFolder)/ are written by Cairn from the documents"
                    )
                    continue
                }
                if bytes != wanted {
                    refusals.append(
                        "\(pointer) is not the pointer of the asset \(document) holds: the pointers in \(StoreLayout.assetsFolder)/ are written by Cairn from the documents"
                    )
                } else if let reference = AssetReference(pointer: bytes) {
                    named[reference] = pointer
                }
            }
            for pointer in expected.keys.sorted() where present[pointer] == nil {
                refusals.append(
                    "\(document) holds an asset whose pointer \(pointer) is missing: the pointers in \(StoreLayout.assetsFolder)/ are written by Cairn from the documents"
                )
            }
        }
        // Every asset newly named must already be on the server: a commit never lands before
        // the bytes it points to.
        if let assetStorage, !named.isEmpty {
            let before = try oldTree.map { try AssetSweep.oids(in: repository, tree: $0) } ?? []
            for (oid, pointer) in named.sorted(by: { $0.key.oid < $1.key.oid }) where !before.contains(oid.oid) {
                guard let size = assetStorage.size(of: oid.oid) else {
                    refusals.append(
                        "\(pointer) points to the asset \(oid.oid), which the server's asset storage does not have: upload it before pushing (a sync does; git lfs push does too)"
                    )
                    continue
                }
                if size != oid.size {
                    refusals.append("\(pointer) says the asset \(oid.oid) is \(oid.size) bytes, and the server holds \(size)")
                }
            }
        }
        return refusals
    }
}
