import CairnCore
import CairnMerge
import Foundation

/// A checkpoint of 10 changed documents: `cairn checkpoint` (the tool, a whole process) and
/// `Store.checkpoint()` (the library, as an app calls it) against `git add <the 10 paths> &&
/// git commit` on an identical repository.
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

    func run(documents: Int) throws -> [Comparison] {
        let work = try bench.scratch("checkpoint-\(documents)")
        let (home, storeFolder, peer) = try bench.storeAndPeer(documents: documents, in: work)
        let store = try Home(root: home).openStore(Fixture.uid)
        let fixture = Fixture(documents: documents)

        let places: [Place] = bench.generated == nil ? [.large, .small] : [.drawn]
        var current = Dictionary(try bench.documents(documents).map { ($0.path, $0.value) }, uniquingKeysWith: { $1 })
        var rows: [Comparison] = []
        for place in places {
            for side in ["cairn checkpoint", "Store.checkpoint()"] {
                rows.append(Comparison(
                    workload: "checkpoint of 10 documents in \(place.rawValue)", documents: documents,
                    cairnSide: side, peerSide: "git add && git commit", unit: "ms",
                    // An app checkpoints through the library; the tool pays a process start.
                    target: side == "cairn checkpoint" ? .fasterBy(3) : .fasterBy(10)))
            }
        }
        var rng = SplitMix(seed: 7)
        var nextAttempt = fixture.attempts
        var stamp = 0
        // Each row's rounds follow one another, so the library's checkpoints follow each other
        // as an app's do: from its second round on, each follows the library's own (the first
        // follows the tool's rounds, one round of the row's median).
        for (index, row) in rows.enumerated() {
            for round in 0..<bench.rounds {
                stamp += 1
                let place = places[index / 2]
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
                    for written in [document] + (try store.schemaSet().owners(affectedBy: document)) where !touched.contains(written.description) {
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
                    try FileManager.default.createDirectory(atPath: String(file[..<file.lastIndex(of: "/")!]), withIntermediateDirectories: true)
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
                let gitSide = {
                    try bench.gitCommand(peer, ["add", "--"] + files).timed()
                        + bench.gitCommand(peer, ["commit", "-q", "-m", "round \(round)"]).timed()
                }
                try rows[index].measure(round: round, cairn: cairnSide, peer: gitSide)
            }
        }
        let (ours, theirs) = (try bench.tree(storeFolder), try bench.tree(peer))
        guard ours == theirs else {
            throw Command.Failure(description: "checkpoint at \(documents) documents: the store's tree \(ours) is not git's \(theirs); the comparison is void")
        }
        if !bench.keep { bench.remove(work) }
        return rows
    }
}
