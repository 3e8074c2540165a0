import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import CairnCore

/// Shared content downloaded for offline use, told for an app none of the seeds describe (a
/// language course: lessons and their flash cards), served from bare repositories on this
/// machine as `cairn server content init` makes them: download, read offline, update with only
/// the changes, the limits, eviction's order, and the refusals that leave the cache as it was.
@Suite(.historiesVerified) struct ContentCacheTests {
    static let lesson = #"""
        {"x-cairn": {"content": true, "path": "lessons/{lessonId}"},
         "type": "object", "required": ["title"], "properties": {"title": {"type": "string", "minLength": 1}}}
        """#
    static let card = #"""
        {"x-cairn": {"content": true, "path": "lessons/{lessonId}/cards/{cardId}"},
         "type": "object", "required": ["front", "back"],
         "properties": {"front": {"type": "string"}, "back": {"type": "string"}}}
        """#
    static let files = SchemaSetFiles(
        name: "lessons",
        files: [
            "lesson.schema.json": Array(lesson.utf8),
            "card.schema.json": Array(card.utf8),
        ])

    /// A server with the collection `lessons`, a home with user u1 syncing there, and a clock
    /// the test moves.
    final class World: @unchecked Sendable {
        let folder = TemporaryFolder("cairn-content")
        var server: String { folder.path + "/server" }
        let home: Home
        let store: Store
        let set: SchemaSet
        private let lock = NSLock()
        private var time: Int64 = 1_800_000_000

        init(progress: SchemaSetFiles? = nil) throws {
            set = try SchemaSet(reading: ContentCacheTests.files)
            _ = try Server.createRepositories(in: folder.path + "/server", uids: ["u1"], cairn: "/bin/false")
            home = Home(root: folder.path + "/home")
            store = try home.createStore("u1", schemaSet: progress)
            try store.setRemote(RemoteURL(server + "/u1.git"))
        }

        var now: Int64 {
            get { lock.withLock { time } }
            set { lock.withLock { time = newValue } }
        }

        var cache: ContentCache { ContentCache(home: home, now: { [unowned self] in self.now }) }

        /// Publishes a version of `item` with `cards` cards (the hook accepts anything here: the
        /// server's own checks have their tests), as an author would: commit in a clone, push.
        func publish(_ item: String, cards: Int, title: String = "Greetings", extra: [String: String] = [:]) throws {
            let repository = server + "/content/lessons/\(item).git"
            if FileManager.default.fileExists(atPath: repository) == false {
                _ = try Server.createContent(
                    in: server, collection: "lessons", items: [item], cairn: "/bin/true",
                    schemaSet: ContentCacheTests.files)
            }
            let clone = folder.path + "/author-\(item)"
            if !FileManager.default.fileExists(atPath: clone) {
                try git(["clone", "-q", repository, clone])
            }
            var files = ["lessons/\(item).json": #"{"title": "\#(title)"}"#]
            for card in 1...max(cards, 1) where cards > 0 {
                files["lessons/\(item)/cards/c\(card).json"] = #"{"front": "word \#(card)", "back": "Wort \#(card) \#(title)"}"#
            }
            for (path, text) in files.merging(extra, uniquingKeysWith: { $1 }) {
                try FileManager.default.createDirectory(
                    atPath: clone + "/" + (path as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true)
                try text.write(toFile: clone + "/" + path, atomically: true, encoding: .utf8)
            }
            try git(["-C", clone, "add", "-A"])
            try git(["-C", clone, "-c", "user.name=Ada", "-c", "user.email=ada@example.org", "commit", "-q", "-m", "publish"])
            try git(["-C", clone, "push", "-q", "origin", "HEAD:main"])
        }

        func git(_ arguments: [String]) throws {
            let result = try runBounded("/usr/bin/git", arguments, removing: ["GIT_DIR", "GIT_WORK_TREE"])
            guard result.status == 0 else { throw CairnError(.io, "git \(arguments.joined(separator: " ")): \(result.stderr)") }
        }

        func download(_ item: String, limits: ContentLimits? = nil) throws(CairnError) -> ContentDownload {
            if let limits { try cache.setLimits(limits) }
            return try cache.download(
                collection: "lessons", item: item, for: store, schemaSet: set,
                options: SyncOptions(retry: .none))
        }

        /// The cache's files, path → bytes: what "as it was" compares.
        func cacheFiles() -> [String: Data] {
            var found: [String: Data] = [:]
            let root = home.contentFolder
            guard let walker = FileManager.default.enumerator(atPath: root) else { return found }
            while let name = walker.nextObject() as? String {
                if name == "lock" { continue }
                if let data = FileManager.default.contents(atPath: root + "/" + name) { found[name] = data }
            }
            return found
        }
    }

    @Test func aLearnerDownloadsALessonAndReadsItOffline() throws {
        let world = try World()
        try world.publish("greetings", cards: 3)
        let download = try world.download("greetings")
        #expect(download.item.version == 1 && download.previous == nil && download.evicted.isEmpty)
        #expect(download.item.downloadedAt == world.now)
        #expect(download.item.expiresAt == world.now + 7 * 86_400)
        #expect(download.item.lastAccessedAt == nil)
        #expect(download.item.sizeBytes > 0 && download.receivedObjects > 0)
        // Offline: the server is gone, the lesson is still there.
        try FileManager.default.moveItem(atPath: world.server, toPath: world.server + "-away")
        world.now += 60
        let card = try world.cache.document(at: DocumentPath("lessons/greetings/cards/c2"))
        #expect(card?.field("back") == .string("Wort 2 Greetings"))
        #expect(try world.cache.item(collection: "lessons", item: "greetings")?.lastAccessedAt == world.now)
        #expect(
            try world.cache.documents(collection: "lessons", item: "greetings").map(\.description)
                == ["lessons/greetings", "lessons/greetings/cards/c1", "lessons/greetings/cards/c2", "lessons/greetings/cards/c3"])
        #expect(try world.cache.document(at: DocumentPath("lessons/greetings/cards/c9")) == nil)
        // The item is a bare repository plain git reads.
        let log = try runBounded(
            "/usr/bin/git",
            [
                "--git-dir", world.home.contentRepository(collection: "lessons", item: "greetings"),
                "rev-list", "--count", "main",
            ])
        #expect(log.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func aNewVersionFetchesOnlyWhatChangedAndARepeatRenewsTheExpiry() throws {
        let world = try World()
        try world.publish("greetings", cards: 40)
        let first = try world.download("greetings")
        try world.publish("greetings", cards: 40, extra: ["lessons/greetings/cards/c7.json": #"{"front": "word 7", "back": "corrected"}"#])
        world.now += 3_600
        let update = try world.download("greetings")
        #expect(update.previous?.version == 1 && update.item.version == 2 && !update.unchanged)
        // One card, its folders, the commit: a handful of objects, not the lesson again.
        #expect(update.receivedObjects > 0 && update.receivedObjects <= 6, "received \(update.receivedObjects) of \(first.receivedObjects)")
        #expect(first.receivedObjects >= 40)
        #expect(try world.cache.document(at: DocumentPath("lessons/greetings/cards/c7"))?.field("back") == .string("corrected"))
        world.now += 3_600
        let again = try world.download("greetings")
        #expect(again.unchanged && again.receivedObjects == 0)
        #expect(again.item.expiresAt == world.now + 7 * 86_400)
    }

    @Test func expiredItemsGoFirstThenTheLeastRecentlyUsed() throws {
        let world = try World()
        for item in ["a", "b", "c", "d", "e"] { try world.publish(item, cards: 1) }
        let limits = ContentLimits(maxItems: 3, expirySeconds: 100)
        _ = try world.download("a", limits: limits)  // t0: expires t0+100
        world.now += 50
        _ = try world.download("b")  // t0+50
        world.now += 10
        _ = try world.download("c")  // t0+60
        world.now += 10
        _ = try world.cache.document(at: DocumentPath("lessons/b"))  // b read at t0+70
        world.now += 50  // t0+120: a expired
        let fourth = try world.download("d")
        #expect(fourth.evicted.map(\.key) == ["lessons/a"])
        world.now += 10
        // b was read after c was downloaded: c is the least recently used.
        let fifth = try world.download("e")
        #expect(fifth.evicted.map(\.key) == ["lessons/c"])
        #expect(try world.cache.items().map(\.key) == ["lessons/b", "lessons/d", "lessons/e"])
        #expect(!FileManager.default.fileExists(atPath: world.home.contentRepository(collection: "lessons", item: "a")))
        #expect(!FileManager.default.fileExists(atPath: world.home.contentRepository(collection: "lessons", item: "c")))
    }

    @Test func aDownloadOverTheLimitsIsRefusedAndTheCacheStaysAsItWas() throws {
        let world = try World()
        try world.publish("small", cards: 1)
        try world.publish("large", cards: 60)
        let small = try world.download("small")
        let before = world.cacheFiles()
        // Over the per-item size.
        try world.cache.setLimits(ContentLimits(maxItemBytes: small.item.sizeBytes + 100))
        let record = world.cacheFiles()
        #expect(throws: CairnError.self) { try world.download("large") }
        do {
            _ = try world.download("large")
        } catch {
            #expect(error.code == .refused && error.message.contains("over the limit") && error.remedy == .raiseItemSizeLimit)
            #expect(error.description.hasSuffix("nothing was downloaded"))
        }
        #expect(world.cacheFiles() == record)
        // Within the per-item size, but the budget holds only one item and the small one is
        // evictable: it goes. With a budget below the large one alone, nothing fits.
        try world.cache.setLimits(ContentLimits(budgetBytes: small.item.sizeBytes + 10))
        do {
            _ = try world.download("large")
            Issue.record("a download larger than the budget was kept")
        } catch {
            #expect(error.code == .refused && error.message.contains("cannot fit"), "\(error.message)")
        }
        #expect(try world.cache.items().map(\.key) == ["lessons/small"])
        #expect(Set(before.keys) == Set(world.cacheFiles().keys))
    }

    /// The learner's answers, each pinned to the lesson it answers.
    static let answers = SchemaSetFiles(
        name: "course",
        files: [
            "answer.schema.json": Array(
                #"""
                {"x-cairn": {"path": "users/{uid}/answers/{answerId}",
                             "pins": {"collection": "lessons", "item": "/lesson", "version": "/lessonVersion"}},
                 "x-merge": "append-only", "type": "object", "required": ["lesson", "answer"],
                 "properties": {"lesson": {"type": "string"}, "lessonVersion": {"type": "string"}, "answer": {"type": "string"}}}
                """#.utf8)
        ])

    @Test func aLessonWithAnswersNotYetPushedIsNeverEvicted() throws {
        let world = try World(progress: Self.answers)
        try world.publish("a", cards: 1)
        try world.publish("b", cards: 1)
        _ = try world.download("a", limits: ContentLimits(maxItems: 1))
        try world.store.put(
            JSONValue.object(["lesson": .string("a"), "answer": .string("Hallo")]), at: DocumentPath("users/u1/answers/x1"))
        #expect(
            try world.store.document(at: DocumentPath("users/u1/answers/x1"))?.field("lessonVersion")
                == .string(try world.cache.item(collection: "lessons", item: "a")!.commit.hex))
        #expect(try world.cache.usage().pending == ["lessons/a": 1])
        let before = world.cacheFiles()
        do {
            _ = try world.download("b")
            Issue.record("the lesson with an answer not yet pushed was evicted")
        } catch {
            #expect(error.code == .refused && error.message.contains("have responses not yet synced (lessons/a)"), "\(error.message)")
        }
        #expect(world.cacheFiles() == before)
        // Pushed, the answer no longer holds the lesson: the next download may evict it.
        _ = try world.store.sync(SyncOptions(retry: .none))
        #expect(try world.cache.usage().pending.isEmpty)
        #expect(try world.download("b").evicted.map(\.key) == ["lessons/a"])
    }

    @Test func anAnswerWrittenAgainKeepsTheVersionItAnswered() throws {
        let world = try World(progress: Self.answers)
        try world.publish("a", cards: 1)
        _ = try world.download("a")
        let first = try world.cache.item(collection: "lessons", item: "a")!.commit.hex
        let path = try DocumentPath("users/u1/answers/x1")
        let answer = JSONValue.object(["lesson": .string("a"), "answer": .string("Hallo")])
        #expect(try world.store.put(answer, at: path) == .created)
        // A new version downloaded, then the item removed: the same answer written again is
        // the same document (append-only: a change would be refused), pinned as it was.
        try world.publish("a", cards: 2)
        _ = try world.download("a")
        #expect(try world.store.put(answer, at: path) == .unchanged)
        try world.cache.remove(collection: "lessons", item: "a")
        #expect(try world.store.put(answer, at: path) == .unchanged)
        #expect(try world.store.document(at: path)?.field("lessonVersion") == .string(first))
        // Another answer, the item not downloaded: written unpinned.
        try world.store.put(
            JSONValue.object(["lesson": .string("a"), "answer": .string("Tschüss")]), at: DocumentPath("users/u1/answers/x2"))
        #expect(try world.store.document(at: DocumentPath("users/u1/answers/x2"))?.field("lessonVersion") == nil)
    }

    @Test func aReadNeverWaitsForADownload() throws {
        let world = try World()
        try world.publish("greetings", cards: 1)
        _ = try world.download("greetings")
        let read = try world.cache.item(collection: "lessons", item: "greetings")?.lastAccessedAt
        // Another process holds the cache's lock (a download in progress). `flock -o` keeps the
        // lock in flock alone, not in the `sleep` it runs: once flock is reaped the lock is
        // free, while a `sleep` still dying from the group's signal could hold it a moment.
        let holder = ChildProcess()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-o", world.home.contentFolder + "/lock", "sleep", "20"]
        try holder.run()
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        world.now += 5
        #expect(try world.cache.document(at: DocumentPath("lessons/greetings/cards/c1"))?.field("front") == .string("word 1"))
        #expect(Date().timeIntervalSince(started) < 2, "the read waited for the lock")
        // Not recorded while the lock is taken; recorded once it is free.
        #expect(try world.cache.item(collection: "lessons", item: "greetings")?.lastAccessedAt == read)
        holder.terminate()
        holder.waitUntilExit()
        _ = try world.cache.document(at: DocumentPath("lessons/greetings/cards/c1"))
        #expect(try world.cache.item(collection: "lessons", item: "greetings")?.lastAccessedAt == world.now)
    }

    @Test func aRepositoryTheRecordDoesNotNameIsSweptAway() throws {
        let world = try World()
        try world.publish("a", cards: 1)
        try world.publish("b", cards: 1)
        _ = try world.download("a")
        // What an eviction cut short leaves: a repository no longer in the record.
        let stray = world.home.contentRepository(collection: "lessons", item: "stray")
        try FileManager.default.copyItem(atPath: world.home.contentRepository(collection: "lessons", item: "a"), toPath: stray)
        _ = try world.download("b")
        #expect(!FileManager.default.fileExists(atPath: stray))
        #expect(try world.cache.items().map(\.key) == ["lessons/a", "lessons/b"])
    }

    @Test func aVersionTheSetRefusesIsNotKeptAndTheOldOneStays() throws {
        let world = try World()
        try world.publish("greetings", cards: 2)
        _ = try world.download("greetings")
        let before = world.cacheFiles()
        // The server's hook was bypassed: a card without its back.
        try world.publish("greetings", cards: 2, extra: ["lessons/greetings/cards/c3.json": #"{"front": "only"}"#])
        do {
            _ = try world.download("greetings")
            Issue.record("a refused version was kept")
        } catch {
            #expect(error.code == .corrupt && error.message.contains("lessons/greetings/cards/c3"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
        #expect(world.cacheFiles() == before)
        #expect(try world.cache.item(collection: "lessons", item: "greetings")?.version == 1)
        #expect(try world.cache.document(at: DocumentPath("lessons/greetings/cards/c1")) != nil)
    }

    @Test func aMissingItemABadIDAndNoNetworkAreOneLineEach() throws {
        let world = try World()
        try world.publish("greetings", cards: 1)
        _ = try world.download("greetings")
        let before = world.cacheFiles()
        for (item, code, words) in [
            ("nowhere", CairnError.Code.notFound, "there is no item lessons/nowhere"),
            ("../up", .invalidInput, "invalid item ID"),
            (".hidden", .invalidInput, "invalid item ID"),
        ] {
            do {
                _ = try world.download(item)
                Issue.record("\(item) was downloaded")
            } catch {
                #expect(error.code == code && error.message.contains(words) && !error.message.contains("\n"), "\(error.message)")
            }
        }
        // A server that does not answer: a network failure, tried once here.
        let listener = try UnansweringListener()
        try world.store.setContentTemplate("http://127.0.0.1:\(listener.port)/git/content/{collection}/{item}.git")
        do {
            _ = try ContentCache(home: world.home).download(
                collection: "lessons", item: "greetings", for: world.store,
                options: SyncOptions(retry: .none, networkTimeout: 1))
            Issue.record("a download from a server that does not answer succeeded")
        } catch {
            #expect(error.code == .network, "\(error.message)")
        }
        #expect(world.cacheFiles() == before)
        #expect(FileManager.default.fileExists(atPath: world.home.contentFolder + "/lessons/nowhere.git") == false)
        // A collection never downloaded: no folder is left for it.
        try world.store.setContentTemplate(nil)
        #expect(throws: CairnError.self) {
            try ContentCache(home: world.home).download(
                collection: "books", item: "b1", for: world.store, options: SyncOptions(retry: .none))
        }
        #expect(!FileManager.default.fileExists(atPath: world.home.contentFolder + "/books"))
    }

    @Test func theURLOfAnItemFollowsTheUsersRemote() throws {
        for (remote, template) in [
            ("https://host/git/u1.git", "https://host/git/content/{collection}/{item}.git"),
            ("ssh://git@host:2222/u1", "ssh://git@host:2222/content/{collection}/{item}"),
            ("git@host:u1.git", "git@host:content/{collection}/{item}.git"),
            ("/srv/cairn/u1.git", "/srv/cairn/content/{collection}/{item}.git"),
        ] {
            #expect(try RemoteURL(remote).contentTemplate == template, "\(remote)")
        }
        let filled = try RemoteURL.contentItem("https://host/c/{collection}/{item}.git", collection: "books", item: "b1")
        #expect(filled.url == "https://host/c/books/b1.git")
        #expect(throws: CairnError.self) { try RemoteURL.contentItem("https://host/c/books", collection: "books", item: "b1") }
    }

    /// An ID may hold any character but `/` (Firestore's rules): in an HTTP URL each one that
    /// is not unreserved is percent-encoded (UTF-8 bytes), so a space, an accent, `%`, `#` or
    /// `?` reach the server as the ID; a path takes the ID as it is.
    @Test func anIDIsPercentEncodedInAnHTTPURLAndLeftAsItIsInAPath() throws {
        for (template, collection, item, url) in [
            (
                "https://host/c/{collection}/{item}.git", "assessments", "Quiz Ünï 1",
                "https://host/c/assessments/Quiz%20%C3%9Cn%C3%AF%201.git"
            ),
            (
                "http://u1@host:8080/git/content/{collection}/{item}.git", "é t", "a%b#c?d+e",
                "http://u1@host:8080/git/content/%C3%A9%20t/a%25b%23c%3Fd%2Be.git"
            ),
            ("https://host/c/{collection}/{item}.git", "books", "b-1_x.y~z", "https://host/c/books/b-1_x.y~z.git"),
            ("/srv/cairn/content/{collection}/{item}.git", "assessments", "Quiz Ünï 1", "/srv/cairn/content/assessments/Quiz Ünï 1.git"),
        ] {
            #expect(try RemoteURL.contentItem(template, collection: collection, item: item).url == url, "\(template) \(item)")
        }
    }
}

/// Which items a download evicts, decided alone.
@Suite(.historiesVerified) struct ContentEvictionTests {
    static func item(_ name: String, size: Int64, downloaded: Int64, expires: Int64, read: Int64? = nil) -> CachedItem {
        CachedItem(
            collection: "c", item: name, commit: CheckpointID(hex: String(repeating: "a", count: 40))!, version: 1,
            sizeBytes: size, downloadedAt: downloaded, expiresAt: expires, lastAccessedAt: read)
    }

    @Test func anItemWithResponsesNotYetSyncedIsNeverEvicted() throws {
        let items = [Self.item("old", size: 100, downloaded: 0, expires: 10), Self.item("new", size: 100, downloaded: 50, expires: 500)]
        let limits = ContentLimits(budgetBytes: 250, maxItems: 50)
        let plan = try ContentEviction.plan(
            items: items, incoming: "c/x", incomingBytes: 100, limits: limits,
            protected: ["c/old"], now: 100
        ).get()
        #expect(plan.evicted.map(\.key) == ["c/new"])
        let refused = ContentEviction.plan(
            items: items, incoming: "c/x", incomingBytes: 100, limits: limits,
            protected: ["c/old", "c/new"], now: 100)
        guard case .failure(let shortfall) = refused else {
            Issue.record("a protected item was evicted")
            return
        }
        #expect(shortfall.protected == ["c/new", "c/old"] && shortfall.keptBytes == 200)
    }

    @Test func nothingIsEvictedWhenTheDownloadFitsAndTheReplacedVersionIsNotCounted() throws {
        let items = [Self.item("a", size: 100, downloaded: 0, expires: 10), Self.item("b", size: 100, downloaded: 0, expires: 10)]
        let fits = try ContentEviction.plan(
            items: items, incoming: "c/c", incomingBytes: 100, limits: ContentLimits(budgetBytes: 300),
            protected: [], now: 100
        ).get()
        #expect(fits.evicted.isEmpty)
        // A new version of b replaces b: only its new size counts.
        let replacing = try ContentEviction.plan(
            items: items, incoming: "c/b", incomingBytes: 150, limits: ContentLimits(budgetBytes: 250),
            protected: [], now: 100
        ).get()
        #expect(replacing.evicted.isEmpty)
        let count = try ContentEviction.plan(
            items: items, incoming: "c/c", incomingBytes: 1, limits: ContentLimits(maxItems: 2),
            protected: [], now: 5
        ).get()
        #expect(count.evicted.map(\.key) == ["c/a"])
    }
}
