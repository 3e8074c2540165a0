import CairnMerge
import Git
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ContentCache {
    /// The content document at `path` (`assessments/a1/questions/q-001`) as the downloaded
    /// version holds it, read offline; nil when the item holds no such document; an item not
    /// downloaded is refused. A read takes no lock, so it never waits for a download; it
    /// records the item's last access when the cache's lock is free (a read during another
    /// process's download is not recorded).
    public func document(at path: DocumentPath) throws(CairnError) -> JSONValue? {
        let (collection, item) = try Self.item(of: path)
        guard let held = try readRecord().items[collection + "/" + item] else {
            throw CairnError(
                .notFound, "\(collection)/\(item) is not downloaded", remedy: .downloadContent(collection: collection, item: item))
        }
        let value = try translating(
            "cannot read \(path) from the downloaded \(held.key)", remedy: .downloadContentAgain(collection: collection, item: item)
        ) { () throws -> JSONValue? in
            let repository = try Repository(openingAt: home.contentRepository(collection: collection, item: item))
            guard let blob = try repository.blobID(at: path.fileName, inCommit: held.commit.objectID) else { return nil }
            return try JSONParser().parse(repository.blobContent(blob))
        }
        // A read that found nothing leaves the record as it was.
        if value != nil {
            _ = try? locked(waiting: 0) { () throws(CairnError) in
                var record = try readRecord()
                guard var current = record.items[held.key] else { return }
                current.lastAccessedAt = now()
                record.items[held.key] = current
                try write(record)
            }
        }
        return value
    }

    /// The documents of a downloaded item, by path.
    public func documents(collection: String, item: String) throws(CairnError) -> [DocumentPath] {
        try Self.validate(collection: collection, item: item, then: "nothing was read")
        guard let held = try readRecord().items[collection + "/" + item] else {
            throw CairnError(
                .notFound, "\(collection)/\(item) is not downloaded", remedy: .downloadContent(collection: collection, item: item))
        }
        return try translating(
            "cannot list the downloaded \(held.key)", remedy: .downloadContentAgain(collection: collection, item: item)
        ) { () throws -> [DocumentPath] in
            let repository = try Repository(openingAt: home.contentRepository(collection: collection, item: item))
            let found = try repository.differences(among: [nil, repository.commit(held.commit.objectID).treeID])
                .compactMap { DocumentPath(fileName: $0.path) }
            return found.sorted { $0.description.utf8.lexicographicallyPrecedes($1.description.utf8) }
        }
    }

    /// Deletes a downloaded item from this device (the progress that answers it stays in the
    /// stores). Returns what was held.
    @discardableResult
    public func remove(collection: String, item: String) throws(CairnError) -> CachedItem {
        try Self.validate(collection: collection, item: item, then: "nothing was removed")
        return try locked { () throws(CairnError) -> CachedItem in
            var record = try readRecord()
            guard let held = record.items[collection + "/" + item] else {
                throw CairnError(
                    .notFound, "\(collection)/\(item) is not downloaded", remedy: .checkContentName(consequence: "nothing was removed"))
            }
            record.items[held.key] = nil
            try write(record)
            try? FileManager.default.removeItem(atPath: home.contentRepository(collection: collection, item: item))
            FileSystem.removeFolderIfEmpty(home.contentFolder + "/" + collection)
            return held
        }
    }

    /// The collection and item a content document's path names (its first two IDs).
    static func item(of path: DocumentPath) throws(CairnError) -> (collection: String, item: String) {
        let names = path.description.split(separator: "/").map(String.init)
        guard names.count >= 2 else {
            throw CairnError(
                .invalidInput, "\(path) names no item: a content document is COLLECTION/ITEM or below it (assessments/a1/questions/q-001)")
        }
        return (names[0], names[1])
    }
}
