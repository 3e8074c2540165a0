import CairnCore
import CairnMerge
import Foundation

/// One document read from a warm store, and one written, through the library an app uses
/// (`ProgressStore.get` and `put`), against the same documents in SQLite. Both sides hand
/// back or take the same thing: a parsed document (`JSONValue`) — SQLite's row is parsed with
/// the same parser, and a written value is serialized to the same canonical bytes. A Cairn
/// `put` also checks the document against its schema and computes its derived fields; it is
/// atomic (temporary file, then rename) and recorded for the next checkpoint, which does not
/// run here (the store's clock is stopped).
struct DocumentBenchmark {
    let bench: Workbench

    static let batch = 500

    func run(documents: Int) throws -> [Comparison] {
        let work = try bench.scratch("documents-\(documents)")
        defer { if !bench.keep { bench.remove(work) } }
        let home = work + "/home"
        try bench.copy(try bench.home(documents: documents), to: home)
        let progress = try ProgressStore(home: Home(root: home), user: Fixture.uid, clock: ManualClock())
        // An app's store holds documents written long before it reads them; the copy above
        // was just made, and a file changed in the last second is read again every time (see
        // `Store.document(at:)`).
        Thread.sleep(forTimeInterval: 1.2)
        let fixture = Fixture(documents: documents)
        // The rows hold what the store holds (a checkpoint may have filled a generated
        // document's counts).
        var current: [String: JSONValue] = [:]
        for (path, _) in try bench.documents(documents) {
            current[path] = try progress.get(path)
        }
        let all = current.sorted { $0.key < $1.key }.map { (path: $0.key, value: $0.value) }
        let database = try SQLiteDocuments(path: work + "/documents.sqlite")
        try database.execute("BEGIN")
        for (path, value) in all {
            try database.put(value.canonicalBytes(), at: path)
        }
        try database.execute("COMMIT")

        var rng = SplitMix(seed: 13)
        let sample = (0..<Self.batch).map { _ in all[Int(rng.next() % UInt64(all.count))].path }
        for path in sample {
            let ours = try progress.get(path)
            let theirs = try database.get(path).map { try JSONParser().parse($0) }
            guard ours != nil, ours == theirs else {
                throw Command.Failure(description: "\(path) reads differently from the store and from SQLite")
            }
        }
        var get = Comparison(
            workload: "get of one document, warm", documents: documents, cairnSide: "ProgressStore.get",
            peerSide: "SQLite SELECT, then parse", unit: "µs", target: .atMost(1))
        var put = Comparison(
            workload: "put of one document (survives an app crash)", documents: documents, cairnSide: "ProgressStore.put",
            peerSide: "SQLite upsert, WAL, synchronous=NORMAL", unit: "µs", target: .fasterBy(0.75))
        let perCall = 1_000 / Double(Self.batch)
        for round in 0..<bench.rounds {
            let ourGets = {
                try Stopwatch.milliseconds { for path in sample { _ = try progress.get(path) } } * perCall
            }
            let theirGets = {
                try Stopwatch.milliseconds {
                    for path in sample { _ = try database.get(path).map { try JSONParser().parse($0) } }
                } * perCall
            }
            let writes =
                try bench.generated?.changes(
                    Self.batch, of: &current, time: Int64(round * Self.batch * 2),
                    checkpointing: false, using: &rng)
                ?? (0..<Self.batch).map { index in
                    Fixture.book(Int(rng.next() % UInt64(fixture.books)), low: round + 1, high: index % 7)
                }
            let ourPuts = {
                try Stopwatch.milliseconds { for (path, value) in writes { try progress.put(value, at: path) } } * perCall
            }
            let theirPuts = {
                try Stopwatch.milliseconds { for (path, value) in writes { try database.put(value.canonicalBytes(), at: path) } } * perCall
            }
            try get.measure(round: round, cairn: ourGets, peer: theirGets)
            try put.measure(round: round, cairn: ourPuts, peer: theirPuts)
        }
        return [get, put]
    }
}
