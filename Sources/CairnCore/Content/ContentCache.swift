import CairnMerge
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The shared content downloaded on this machine for offline use, kept in the home's
/// `.content/` folder for all its users: one bare repository per item
/// (`.content/<collection>/<item>.git`, read only; its `main` is the version held) and one
/// record, `.content/cache.json` (the limits, and per item its version, size, download,
/// expiry and last access).
///
/// Every change takes the cache's lock (`.content/lock`), so two processes never download
/// into it at once; the record is replaced atomically, and an item's repository is swapped in
/// whole, so a failed or refused download leaves the cache as it was.
public struct ContentCache: Sendable {
    /// The home the cache belongs to.
    public let home: Home
    /// The clock, in seconds since 1970 (the system's unless a test gives its own).
    public var now: @Sendable () -> Int64

    public init(home: Home, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.home = home
        self.now = now
    }

    /// The cache's record.
    var recordFile: String { home.contentFolder + "/cache.json" }

    /// The items held, by collection then item.
    public func items() throws(CairnError) -> [CachedItem] {
        try readRecord().items.values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The item held for `collection`/`item`, nil when it is not downloaded.
    public func item(collection: String, item: String) throws(CairnError) -> CachedItem? {
        try readRecord().items[collection + "/" + item]
    }

    /// The limits in force: the record's, else the seed's.
    public func limits() throws(CairnError) -> ContentLimits {
        try readRecord().limits
    }

    /// Sets the limits; the next download is held to them (nothing is evicted now).
    public func setLimits(_ limits: ContentLimits) throws(CairnError) {
        try locked { () throws(CairnError) in
            var record = try readRecord()
            record.limits = limits
            try write(record)
        }
    }

    /// The record: limits and items.
    struct Record {
        var limits = ContentLimits.standard
        var items: [String: CachedItem] = [:]
    }

    func readRecord() throws(CairnError) -> Record {
        guard let bytes = try FileSystem.read(recordFile) else { return Record() }
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw CairnError(
                .corrupt,
                "the content cache's record \(recordFile) is not JSON (\(error.description)); remove it and download the items again",
                cause: error)
        }
        var record = Record(limits: ContentLimits(value.field("limits")))
        if case .array(let entries)? = value.field("items") {
            for entry in entries {
                guard let item = CachedItem(entry) else {
                    throw CairnError(
                        .corrupt,
                        "the content cache's record \(recordFile) holds an item it cannot read (\(entry.inlineText)); remove it and download the items again"
                    )
                }
                record.items[item.key] = item
            }
        }
        return record
    }

    func write(_ record: Record) throws(CairnError) {
        let items = record.items.values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let value = JSONValue.object(["limits": record.limits.jsonValue, "items": .array(items.map(\.jsonValue))])
        try FileSystem.makeFolders(home.contentFolder)
        try FileSystem.writeAtomically(value.canonicalBytes(), to: recordFile)
    }

    /// Runs `body` holding the cache's lock, waiting for it as long as a store's lock waits
    /// (or `timeout` seconds: 0 to give up at once).
    func locked<T>(waiting timeout: Double? = nil, _ body: () throws(CairnError) -> T) throws(CairnError) -> T {
        try FileSystem.makeFolders(home.contentFolder)
        let lock = StoreLock(gitdir: home.contentFolder, timeout: timeout ?? home.configuration.lockTimeout, file: "lock")
        do {
            return try lock.withLock { () throws -> T in try body() }
        } catch let error as CairnError where error.code == .busy {
            throw CairnError(
                .busy,
                "the content cache \(home.contentFolder) is busy: another process is downloading or removing content; try again when it is done",
                cause: error)
        } catch let error as CairnError {
            throw error
        } catch {
            throw CairnError(.io, "cannot use the content cache \(home.contentFolder): \(error)")
        }
    }

    /// Checks a collection's name and an item's ID (both are document IDs).
    static func validate(collection: String, item: String, then consequence: String) throws(CairnError) {
        for (id, what) in [(collection, "collection name"), (item, "item ID")] {
            do {
                try DocumentID.validate(id, in: id)
            } catch {
                throw CairnError(.invalidInput, "invalid \(what): \(error.description); \(consequence)", cause: error)
            }
        }
    }
}
