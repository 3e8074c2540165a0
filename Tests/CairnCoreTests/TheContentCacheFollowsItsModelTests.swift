import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The content cache under random sequences of what authors and a learner do — publish a
/// version (sometimes one that breaks the content set), download, read, answer (pinned to
/// the version held), sync, remove, let time pass — checked after every step against a
/// model of what must be held: which items, at which version, which broken versions were
/// passed over, which item each download evicts (expired first, then the least recently
/// used, never one with answers not yet pushed), and when a download or a sync must refuse.
/// Each sequence replays from its seed (``PropertySeeds``).
@Suite(.historiesVerified) struct TheContentCacheFollowsItsModelTests {
    static let items = ["a", "b", "c"]
    static let limits = ContentLimits(maxItems: 2, expirySeconds: 3 * 86_400)

    /// What must be true of the cache, kept beside it.
    struct Model {
        /// The server's versions of each item, oldest first: commit and whether it holds to
        /// the set.
        var published: [String: [(commit: String, valid: Bool, title: String)]] = [:]
        struct Held: Equatable {
            var index: Int
            var commit: String
            var passedOver: [String]
            var downloadedAt: Int64
            var expiresAt: Int64
            var readAt: Int64?
            var lastUsed: Int64 { readAt ?? downloadedAt }
        }
        var held: [String: Held] = [:]
        /// Answers not yet pushed, by item: the versions they are pinned to.
        var pending: [String: [String]] = [:]

        /// What a download of `item` at `now` must do: nil when it is refused (and nothing
        /// changes), else the item held after it and the items it evicts.
        func download(_ item: String, now: Int64) -> (held: Held, evicted: [String])? {
            let versions = published[item] ?? []
            guard !versions.isEmpty else { return nil }
            let previous = held[item]
            let start = (previous?.index ?? -1) + 1
            let newer = Array(versions.indices.dropFirst(start))
            let taken: Int
            if newer.isEmpty {
                taken = previous!.index
            } else {
                guard let newest = newer.last(where: { versions[$0].valid }) else { return nil }
                taken = newest
            }
            let passedOver = newer.isEmpty ? previous!.passedOver : newer.filter { !versions[$0].valid }.map { versions[$0].commit }
            let made = Held(
                index: taken, commit: versions[taken].commit, passedOver: passedOver, downloadedAt: now,
                expiresAt: now + limits.expirySeconds, readAt: previous?.readAt)
            // Room: expired first (earliest expiry), then the least recently used; never one
            // with answers not yet pushed.
            var staying = held.keys.filter { $0 != item }
            guard staying.count + 1 > limits.maxItems else { return (made, []) }
            let candidates = staying.filter { (pending[$0] ?? []).isEmpty }.sorted { first, second in
                let (one, other) = (held[first]!, held[second]!)
                let (oneExpired, otherExpired) = (one.expiresAt <= now, other.expiresAt <= now)
                if oneExpired != otherExpired { return oneExpired }
                let (oneTime, otherTime) = oneExpired ? (one.expiresAt, other.expiresAt) : (one.lastUsed, other.lastUsed)
                if oneTime != otherTime { return oneTime < otherTime }
                return first < second
            }
            var evicted: [String] = []
            for candidate in candidates where staying.count + 1 > limits.maxItems {
                evicted.append(candidate)
                staying.removeAll { $0 == candidate }
            }
            return staying.count + 1 > limits.maxItems ? nil : (made, evicted)
        }

        /// Whether a sync now holds its push: an answer pinned to a version that is no longer
        /// the server's.
        var syncHolds: Bool {
            pending.contains { item, versions in versions.contains { $0 != published[item]?.last?.commit } }
        }
    }

    @Test func everyStepLeavesTheCacheAsTheModelSays() throws {
        var seen: Set<String> = []
        for seed in PropertySeeds.seeds(4) {
            try run(seed: seed, seen: &seen)
        }
        // The sequences reached every case the model tells apart.
        let cases = ["a version passed over", "an eviction", "a refused download", "a held sync", "a sync pushed"]
        #expect(seen.isSuperset(of: cases), "reached: \(seen.sorted())")
    }

    func run(seed: UInt64, seen: inout Set<String>) throws {
        let world = try ContentCacheTests.World(progress: ContentCacheTests.answers)
        try world.cache.setLimits(Self.limits)
        var random = SplitMix(seed: seed)
        var model = Model()
        var log: [String] = []
        var answers = 0
        func fail(_ what: String) { Issue.record(Comment(rawValue: what + " — " + PropertySeeds.replay(seed, log))) }

        for _ in 0..<PropertySeeds.steps(30) {
            let item = Self.items[Int.random(in: 0..<Self.items.count, using: &random)]
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<30:
                // An author publishes; a quarter of the versions break the set (a card without
                // its back), the hook of this server letting them in.
                let broken = Int.random(in: 0..<4, using: &random) == 0
                let title = "v\(model.published[item, default: []].count + 1)"
                let card = broken ? ["lessons/\(item)/cards/c1.json": #"{"front": "no back"}"#] : [:]
                try world.publish(item, cards: 1, title: title, extra: card)
                let commit = try runBounded(
                    "/usr/bin/git", ["--git-dir", world.server + "/content/lessons/\(item).git", "rev-parse", "main"]
                )
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                model.published[item, default: []].append((commit, !broken, title))
                log.append("publish \(item) \(title)\(broken ? " (broken)" : "")")
            case 30..<65:
                log.append("download \(item)")
                let expected = model.download(item, now: world.now)
                do {
                    let download = try world.download(item)
                    guard let (held, evicted) = expected else {
                        fail("the download of \(item) was taken; the model refuses it")
                        return
                    }
                    if download.evicted.map(\.item) != evicted { fail("evicted \(download.evicted.map(\.item)), the model \(evicted)") }
                    if !evicted.isEmpty { seen.insert("an eviction") }
                    if !held.passedOver.isEmpty { seen.insert("a version passed over") }
                    for gone in evicted { model.held[gone] = nil }
                    model.held[item] = held
                    // The version taken is read offline.
                    let title = try world.cache.document(at: DocumentPath("lessons/\(item)"))?.field("title")
                    if title != .string(model.published[item]![held.index].title) { fail("\(item) reads \(String(describing: title))") }
                    model.held[item]?.readAt = world.now
                } catch {
                    seen.insert("a refused download")
                    if let expected {
                        fail("the download of \(item) was refused (\(error)); the model takes version \(expected.held.index + 1)")
                        return
                    }
                }
            case 65..<75:
                log.append("read \(item)")
                if model.held[item] != nil {
                    _ = try world.cache.document(at: DocumentPath("lessons/\(item)"))
                    model.held[item]?.readAt = world.now
                }
            case 75..<85:
                // An answer to an item held, pinned to its version.
                guard let held = model.held[item] else { continue }
                answers += 1
                log.append("answer \(item) (x\(answers))")
                try world.store.put(
                    .object(["lesson": .string(item), "answer": .string("answer \(answers)")]),
                    at: DocumentPath("users/u1/answers/x\(answers)"))
                model.pending[item, default: []].append(held.commit)
            case 85..<92:
                log.append("sync")
                let result = try world.store.sync(SyncOptions(retry: .none))
                if result.held != model.syncHolds { fail("the sync held: \(result.held); the model: \(model.syncHolds)") }
                if !result.held { model.pending = [:] }
                seen.insert(result.held ? "a held sync" : "a sync pushed")
            case 92..<95:
                log.append("remove \(item)")
                if model.held[item] != nil {
                    try world.cache.remove(collection: "lessons", item: item)
                    model.held[item] = nil
                }
            default:
                let seconds = Int64.random(in: 1...(2 * 86_400), using: &random)
                log.append("wait \(seconds) s")
                world.now += seconds
            }
            world.now += 1
            // After every step, the cache is the model.
            let items = try world.cache.items()
            let found = Dictionary(uniqueKeysWithValues: items.map { ($0.item, $0) })
            if Set(found.keys) != Set(model.held.keys) {
                fail("the cache holds \(found.keys.sorted()), the model \(model.held.keys.sorted())")
                return
            }
            for (name, held) in model.held {
                let item = found[name]!
                if item.commit.hex != held.commit || item.version != held.index + 1 {
                    fail("\(name) is at version \(item.version) (\(item.commit.short)); the model: \(held.index + 1)")
                    return
                }
                if item.passedOver.map(\.commit.hex) != held.passedOver {
                    fail("\(name) passed over \(item.passedOver.map(\.version)); the model: \(held.passedOver.count) versions")
                    return
                }
                if item.expiresAt != held.expiresAt { fail("\(name) expires at \(item.expiresAt), the model \(held.expiresAt)") }
            }
            let pending = try world.cache.usage().pending.filter { $0.value > 0 }
            let expectedPending = model.pending.filter { !$0.value.isEmpty }.mapValues(\.count)
            if pending != Dictionary(uniqueKeysWithValues: expectedPending.map { ("lessons/" + $0.key, $0.value) }) {
                fail("pending answers \(pending), the model \(expectedPending)")
                return
            }
        }
    }
}
