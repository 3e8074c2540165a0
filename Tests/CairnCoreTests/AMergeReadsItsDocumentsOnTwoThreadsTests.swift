import CairnMerge
import CairnTestSupport
import Git
import GitFormat
import Synchronization
import Testing

@testable import CairnCore

#if canImport(Glibc)
import Glibc
import CairnToolTestSupport
#endif

/// A merge of many documents both sides changed reads and merges them in batches, half of
/// each on a second thread with a handle of its own, opened once a merge. What it gives is
/// what doing it one by one gives: the same merged store, the results in order, the same
/// first failure, and the blobs only the store's own handle can see (kept in its memory, as
/// an audit keeps what it writes) read by it. A hook's repository merges on one thread.
@Suite(.historiesVerified) struct AMergeReadsItsDocumentsOnTwoThreadsTests {
    let folder = TemporaryFolder("cairn-merge-lanes")
    let repository: Repository

    init() throws {
        repository = try Repository.create(at: folder.path + "/repo", initialBranch: "main")
    }

    func tree(_ documents: [DocumentPath: JSONValue]) throws -> ObjectID {
        let updates = try documents.map { (path, value) in
            TreeUpdate.upsert(path: path.fileName, id: try repository.writeBlob(value.canonicalBytes()), mode: 0o100644)
        }
        return try repository.updateTree(ObjectID.emptyTree, with: updates).id
    }

    func book(_ number: Int, sections: [Int], stamp: Int64) -> JSONValue {
        var entries: JSONObject = [:]
        for section in sections {
            entries["s\(section)"] = .object(["completed": .bool(section % 2 == 0), "updatedAt": .integer(stamp + Int64(section))])
        }
        return .object([
            "schemaVersion": .integer(1), "bookId": .string("b\(number)"), "sections": .object(entries),
            "updatedAt": .integer(stamp),
        ])
    }

    /// The documents as ``RepositoryMergeSource/merging(_:_:)`` hands them to a merge, each
    /// asked for as its only version, and how many threads merged them. Each merge takes
    /// `pause` microseconds, so that both threads take a share of tiny documents.
    func read(_ asked: [(blob: ObjectID, path: DocumentPath)], pause: UInt32 = 0) throws -> (documents: [JSONValue], threads: Int) {
        let threads = Mutex<Set<UInt>>([])
        let documents = try RepositoryMergeSource(repository: repository, codec: .plain)
            .merging(asked.map { ($0.path, [$0.blob]) }) { _, versions in
                threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                if pause > 0 { usleep(pause) }
                return versions[0] ?? .null
            }
        return (documents, threads.withLock { $0.count })
    }

    /// `count` requests for the blobs of distinct documents, in path order.
    func requests(_ count: Int, writing bytes: (Int) -> [UInt8]) throws -> [(blob: ObjectID, path: DocumentPath)] {
        try (0..<count).map { number in
            (try repository.writeBlob(bytes(number)), try DocumentPath("users/u1/books/b\(1_000 + number)"))
        }
    }

    @Test func manyDocumentsMergeAsTheWholeStoreMerge() throws {
        let set = try SchemaSet(files: shippedSchemaSet("life-in-uk").files)
        // More than two batches of documents both sides changed, and books only one side did.
        var stores: [[DocumentPath: JSONValue]] = [[:], [:], [:]]
        for number in 0..<300 {
            let path = try DocumentPath("users/u1/books/b\(number)")
            stores[0][path] = set.filled(book(number, sections: [0, 1], stamp: 10), at: path)
            stores[1][path] = set.filled(book(number, sections: [0, 1, 2], stamp: 20), at: path)
            stores[2][path] = set.filled(
                number % 7 == 0 ? book(number, sections: [0, 1], stamp: 10) : book(number, sections: [1, 3], stamp: 30), at: path)
        }
        let expected = set.mergeDocuments(base: stores[0], ours: stores[1], theirs: stores[2])
        let merge = StoreMerge(repository: repository, schemaSet: set, codec: .plain)
        let outcome = try merge.merge(base: tree(stores[0]), ours: tree(stores[1]), theirs: tree(stores[2]))
        #expect(outcome.mergedDocuments == 300 - 43)
        #expect(outcome.conflicts == expected.conflicts)
        #expect(outcome.tree == (try tree(expected.documents)))
    }

    @Test func theDocumentsComeInTheOrderAsked() throws {
        let asked = try requests(100) { number in Array(#"{"n": \#(number)}"#.utf8) }
        #expect(try read(asked).documents == (0..<100).map { JSONValue.object(["n": .integer(Int64($0))]) })
    }

    @Test(arguments: [[30, 70], [70], [99]])
    func theFirstBrokenDocumentInOrderIsTheFailure(_ broken: [Int]) throws {
        let asked = try requests(100) { number in Array((broken.contains(number) ? #"{"n": "# : #"{"n": \#(number)}"#).utf8) }
        // Each merge takes a while, so that both threads take turns before a failure.
        let error = try #require(throws: CairnError.self) { try read(asked, pause: 300) }
        #expect(error.code == .corrupt)
        #expect(error.message.hasPrefix("users/u1/books/b\(1_000 + broken[0]) in history is not a valid document"), "\(error.message)")
    }

    @Test func blobsOnlyTheStoresHandleSeesAreReadByIt() throws {
        // Blobs an audit writes are kept in the handle's memory: another handle on
        // the folder does not see them. Here they are the last 40 of 120, which both threads
        // take turns at: the other thread stops at the first it cannot find.
        let onDisk = try requests(80) { number in Array(#"{"n": \#(number)}"#.utf8) }
        try repository.keepNewObjectsInMemory()
        let inMemory = try (80..<120).map { number in
            (try repository.writeBlob(Array(#"{"n": \#(number)}"#.utf8)), try DocumentPath("users/u1/books/b\(1_000 + number)"))
        }
        let other = try #require(try repository.openedForAnotherThread())
        #expect(throws: (any Error).self, "another handle sees the blobs in memory: the story tells nothing") {
            try other.blobContent(inMemory[0].0)
        }
        let read = try read(onDisk + inMemory, pause: 500)
        #expect(read.threads == 2)
        #expect(read.documents == (0..<120).map { JSONValue.object(["n": .integer(Int64($0))]) })
    }

    @Test func aMergeOpensItsSecondHandleOnce() throws {
        let source = RepositoryMergeSource(repository: repository, codec: .plain)
        #expect(source.secondHandle.opened == 0)
        // Two batches of documents, each merged on two threads.
        let asked = try requests(200) { number in Array(#"{"n": \#(number)}"#.utf8) }
        for batch in [asked[..<100], asked[100...]] {
            let threads = Mutex<Set<UInt>>([])
            let documents = try source.merging(batch.map { ($0.path, [$0.blob]) }) { _, versions in
                threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                usleep(200)
                return versions[0] ?? .null
            }
            #expect(documents.count == 100)
            #expect(threads.withLock { $0.count } == 2)
        }
        #expect(source.secondHandle.opened == 1)
        #expect(source.secondHandle.handle !== repository)
    }

    @Test func aHooksRepositoryMergesOnOneThread() async {
        // A process of its own: a hook's repository is found through the environment.
        await #expect(processExitsWith: .success) {
            let suite = try AMergeReadsItsDocumentsOnTwoThreadsTests()
            let asked = try suite.requests(60) { number in Array(#"{"n": \#(number)}"#.utf8) }
            setenv("GIT_DIR", suite.repository.gitdir, 1)
            let hooks = try Repository.openFromEnvironment()
            if try hooks.openedForAnotherThread() != nil { exit(3) }
            let threads = Mutex<Set<UInt>>([])
            let documents = try RepositoryMergeSource(repository: hooks, codec: .plain)
                .merging(asked.map { ($0.path, [$0.blob]) }) { _, versions in
                    threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                    usleep(200)
                    return versions[0] ?? .null
                }
            if documents != (0..<60).map({ JSONValue.object(["n": .integer(Int64($0))]) }) { exit(4) }
            if threads.withLock({ $0.count }) != 1 { exit(5) }
        }
    }
}
