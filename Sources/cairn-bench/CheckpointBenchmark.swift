import CairnCore
import CairnMerge
import Foundation

/// A checkpoint of 10 changed documents: `cairn checkpoint` (the tool, a whole process) and
/// `Store.checkpoint()` (the library, as an app calls it) against `git add <the 10 paths> &&
/// git commit` on an identical repository; the library's also against the same git made as
/// durable (`core.fsync=added`, `core.fsyncMethod=fsync`), and against its own fsyncs issued
/// alone (``FsyncFloor``), the physical limit.
///
/// The targets: the library at least 5× the durable git and at most 2× the floor. The tool's
/// start is its floor (one process per command): its rows and the library's against plain git
/// are reported without a target.
///
/// Two sets of 10: in the large collections (5 new attempts, 5 books with sections marked:
/// the two folders that hold nearly every document, whose trees git's format rewrites
/// whole) and in a small one (10 of the 40 exams in progress, whatever the store's size).
struct CheckpointBenchmark {
    let bench: Workbench

    enum Place: String, CaseIterable {
        case large = "large collections"
        case small = "a small collection"
        /// Documents drawn from another schema set (`--schema`), changed as devices change them.
        case drawn = "the set's collections"
    }

    static let changed = 10

    /// What the library's checkpoint is set against.
    enum Peer: String, CaseIterable {
        case git = "git add && git commit"
        case durableGit = "git add && git commit, fsynced (core.fsync=added, core.fsyncMethod=fsync)"
        case fsyncs = "the checkpoint's 7 fsyncs alone (the floor)"

        /// git's settings for this peer.
        var gitSettings: [String] {
            self == .durableGit ? ["-c", "core.fsync=added", "-c", "core.fsyncMethod=fsync"] : []
        }
    }

    func run(documents: Int) throws -> [Comparison] {
        let work = try bench.scratch("checkpoint-\(documents)")
        let (home, storeFolder, peer) = try bench.storeAndPeer(documents: documents, in: work)
        let store = try Home(root: home).openStore(Fixture.uid)
        let fixture = Fixture(documents: documents)

        let places: [Place] = bench.generated == nil ? [.large, .small] : [.drawn]
        var current = Dictionary(try bench.documents(documents).map { ($0.path, $0.value) }, uniquingKeysWith: { $1 })
        var rows: [Comparison] = []
        var peers: [Peer] = []
        let sides: [(String, Peer, Comparison.Target)] = [
            ("cairn checkpoint", .git, .none), ("Store.checkpoint()", .git, .none),
            ("Store.checkpoint()", .durableGit, .fasterBy(5)), ("Store.checkpoint()", .fsyncs, .atMost(2)),
        ]
        for place in places {
            for (side, peer, target) in sides {
                rows.append(
                    Comparison(
                        workload: "checkpoint of 10 documents in \(place.rawValue)", documents: documents,
                        cairnSide: side, peerSide: peer.rawValue, unit: "ms", target: target))
                peers.append(peer)
            }
        }
        let floor = FsyncFloor(folder: work + "/floor")
        var rng = SplitMix(seed: 7)
        var nextAttempt = fixture.attempts
        var stamp = 0
        // Each row's rounds follow one another, so the library's checkpoints follow each other
        // as an app's do: from its second round on, each follows the library's own (the first
        // follows the tool's rounds, one round of the row's median).
        for (index, row) in rows.enumerated() {
            for round in 0..<bench.rounds {
                stamp += 1
                let place = places[index / sides.count]
                var changes: [(path: String, value: JSONValue)] = []
                switch place {
                case .large:
                    for _ in 0..<Self.changed / 2 {
                        changes.append(Fixture.attempt(nextAttempt, &rng))
                        nextAttempt += 1
                        changes.append(Fixture.book(Int(rng.next() % UInt64(fixture.books)), low: stamp, high: 0))
                    }
                case .small:
                    var numbers = Array(0..<Fixture.inProgressExams)
                    numbers.shuffle(using: &rng)
                    for number in numbers.prefix(Self.changed) {
                        changes.append(Fixture.inProgress(number, stamp: stamp, &rng))
                    }
                case .drawn:
                    changes = try bench.generated!.changes(Self.changed, of: &current, time: Int64(stamp) * 100, using: &rng)
                }
                // git's side gets the files as the store wrote them: with their derived fields,
                // and the documents above them whose counts the writes changed.
                var touched: [String] = []
                for (path, value) in changes {
                    let document = try DocumentPath(path)
                    try store.put(value, at: document)
                    for written in [document] + (try store.schemaSet().owners(affectedBy: document))
                    where !touched.contains(written.description) {
                        touched.append(written.description)
                    }
                }
                // A document whose counts would change may not be there (a task of a board
                // never written): then neither side has it.
                touched = touched.filter { FileManager.default.fileExists(atPath: storeFolder + "/" + $0 + ".json") }
                for path in touched {
                    guard let bytes = FileManager.default.contents(atPath: storeFolder + "/" + path + ".json") else {
                        throw Command.Failure(description: "cannot read \(path) in the store after writing it")
                    }
                    let file = peer + "/" + path + ".json"
                    try FileManager.default.createDirectory(
                        atPath: String(file[..<file.lastIndex(of: "/")!]), withIntermediateDirectories: true)
                    try Workbench.write(Array(bytes), to: file)
                }
                let files = touched.map { $0 + ".json" }
                let inProcess = row.cairnSide.hasPrefix("Store")
                let cairnSide = {
                    if inProcess {
                        return try Stopwatch.milliseconds { _ = try store.checkpoint() }
                    }
                    return try bench.cairnCommand(home: home, ["checkpoint"]).timed()
                }
                let settings = peers[index].gitSettings
                let gitSide = {
                    try bench.gitCommand(peer, settings + ["add", "--"] + files).timed()
                        + bench.gitCommand(peer, settings + ["commit", "-q", "-m", "round \(round)"]).timed()
                }
                // The floor's row: git's copy follows untimed, then the fsyncs of the checkpoint
                // just made are timed alone.
                let floorSide = {
                    _ = try gitSide()
                    return try floor.measure(like: storeFolder + "/.git")
                }
                if peers[index] == .fsyncs {
                    // The checkpoint first: the floor copies the sizes of what it wrote.
                    rows[index].cairn.append(try cairnSide())
                    rows[index].peer.append(try floorSide())
                } else {
                    try rows[index].measure(round: round, cairn: cairnSide, peer: gitSide)
                }
            }
        }
        let (ours, theirs) = (try bench.tree(storeFolder), try bench.tree(peer))
        guard ours == theirs else {
            throw Command.Failure(
                description: "checkpoint at \(documents) documents: the store's tree \(ours) is not git's \(theirs); the comparison is void"
            )
        }
        if !bench.keep { bench.remove(work) }
        return rows
    }
}
