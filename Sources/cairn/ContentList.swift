import ArgumentParser
import CairnCore
import CairnMerge

/// `cairn content ls`: the storage screen (seed 001 §8.2).
struct ContentList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the downloaded items with their version, size, times and pending responses, and the totals.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let cache = ContentCache(home: global.resolvedHome)
        let usage = try cache.usage()
        let now = cache.now()
        if json { return Output.json(Self.jsonValue(of: usage, now: now)) }
        for item in usage.items {
            let state = item.isExpired(at: now) ? "expired \(Self.time(item.expiresAt))" : "expires \(Self.time(item.expiresAt))"
            let accessed = item.lastAccessedAt.map { "read \(Self.time($0))" } ?? "never read"
            let pending = usage.pending[item.key] ?? 0
            print(
                "\(item.key)  version \(item.version) (\(item.commit.short))  \(ContentCache.shown(item.sizeBytes))  downloaded \(Self.time(item.downloadedAt))  \(state)  \(accessed)  \(pending) pending"
            )
            for version in item.passedOver { print("  passed over " + Self.passedOver(version)) }
        }
        let percent = usage.limits.budgetBytes > 0 ? usage.usedBytes * 100 / usage.limits.budgetBytes : 100
        print(
            "Used: \(ContentCache.shown(usage.usedBytes)) / \(ContentCache.shown(usage.limits.budgetBytes)) (\(percent)%); items: \(usage.items.count) / \(usage.limits.maxItems); pending sync: \(usage.pendingTotal) response(s)"
        )
        let elsewhere = usage.pending.filter { key, count in count > 0 && !usage.items.contains { $0.key == key } }
        for (key, count) in elsewhere.sorted(by: { $0.key < $1.key }) {
            print("  \(count) pending response(s) answer \(key), which is not downloaded")
        }
        if !usage.unreadableStores.isEmpty {
            print(
                "  could not read the stores of \(usage.unreadableStores.joined(separator: ", ")): their pending responses are not counted, and nothing is evicted"
            )
        }
    }

    /// `version 2 (1a2b3c4): …`: a version a download passed over.
    static func passedOver(_ version: PassedOverVersion) -> String {
        "version \(version.version) (\(version.commit.short)): \(version.reason)"
    }

    /// A time as people read it, in UTC.
    static func time(_ seconds: Int64) -> String { ISO8601Stamp.text(seconds: seconds, separator: " ") }

    static func jsonValue(of item: CachedItem, pending: Int? = nil, now: Int64? = nil) -> JSONValue {
        var fields: JSONObject = [
            "collection": .string(item.collection), "item": .string(item.item), "commit": .string(item.commit.hex),
            "version": .integer(Int64(item.version)), "sizeBytes": .integer(item.sizeBytes),
            "downloadedAt": .integer(item.downloadedAt), "expiresAt": .integer(item.expiresAt),
            "lastAccessedAt": item.lastAccessedAt.map { .integer($0) } ?? .null,
            "passedOver": .array(item.passedOver.map(\.jsonValue)),
        ]
        if let pending { fields["pending"] = .integer(Int64(pending)) }
        if let now { fields["expired"] = .bool(item.isExpired(at: now)) }
        return .object(fields)
    }

    /// `items` (each with `pending` and `expired`), `usedBytes`, `limits`, `pending` (the
    /// total) and `unreadableStores`.
    static func jsonValue(of usage: ContentUsage, now: Int64) -> JSONValue {
        .object([
            "items": .array(usage.items.map { jsonValue(of: $0, pending: usage.pending[$0.key] ?? 0, now: now) }),
            "usedBytes": .integer(usage.usedBytes),
            "limits": ContentLimitsCommand.jsonValue(of: usage.limits),
            "pending": .integer(Int64(usage.pendingTotal)),
            "unreadableStores": .array(usage.unreadableStores.map { .string($0) }),
        ])
    }

    /// `item`, `previous` (null on a first download), `unchanged`, `receivedObjects`,
    /// `receivedBytes`, `evicted`.
    static func jsonValue(of download: ContentDownload) -> JSONValue {
        .object([
            "item": jsonValue(of: download.item),
            "previous": download.previous.map { jsonValue(of: $0) } ?? .null,
            "unchanged": .bool(download.unchanged),
            "receivedObjects": .integer(Int64(download.receivedObjects)),
            "receivedBytes": .integer(Int64(download.receivedBytes)),
            "evicted": .array(download.evicted.map { jsonValue(of: $0) }),
        ])
    }
}
