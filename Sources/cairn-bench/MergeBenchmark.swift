import CairnCore
import CairnMerge
import Foundation
import Git

/// The three-way merge of two commits that changed the same books, one the first half of
/// their sections and the other the second: `cairn merge-tree` (the tool) and
/// `Store.mergeTree` (the library) against `git merge-tree --write-tree` on the same two
/// commits (git's own line merge: it does not know the policies, so it reports the
/// `completedCount`, `lastSectionId` and `updatedAt` lines as conflicts, but it reads,
/// merges and writes the same files).
struct MergeBenchmark {
    let bench: Workbench

    static let maximumBooks = 1_000

    func run(documents: Int) throws -> [Comparison] {
        let work = try bench.scratch("merge-\(documents)")
        defer { if !bench.keep { bench.remove(work) } }
        let (home, storeFolder, peer) = try bench.storeAndPeer(documents: documents, in: work)
        // git's own line merge for every document: the store's `.gitattributes` names Cairn's
        // driver, and `.git/info/attributes` comes before it. (Without a driver's command, git
        // merge-tree stops at the first document with "custom merge driver cairn lacks command
        // line" having merged nothing.)
        try bench.gitCommand(peer, ["config", "--unset", "merge.cairn.driver"]).run()
        try Workbench.write(Array("*.json merge=text\n".utf8), to: peer + "/.git/info/attributes")
        let sides = try self.sides(documents: documents)
        let count = sides.count
        for (branch, changes) in [("ours", sides.ours), ("theirs", sides.theirs)] {
            try bench.gitCommand(peer, ["checkout", "-q", "-b", branch, "main"]).run()
            var files: [String] = []
            for (path, value) in changes {
                let file = peer + "/" + path + ".json"
                try FileManager.default.createDirectory(
                    atPath: String(file[..<file.lastIndex(of: "/")!]), withIntermediateDirectories: true)
                try Workbench.write(value.canonicalBytes(), to: file)
                files.append(path + ".json")
            }
            try bench.gitCommand(peer, ["add", "--"] + files).run()
            try bench.gitCommand(peer, ["commit", "-q", "-m", branch]).run()
        }
        try bench.gitCommand(peer, ["checkout", "-q", "main"]).run()
        try bench.gitCommand(storeFolder, ["fetch", "-q", peer, "ours:refs/heads/ours", "theirs:refs/heads/theirs"]).run()
        let store = try Home(root: home).openStore(Fixture.uid)

        let label =
            bench.generated == nil
            ? "three-way merge of \(count.formatted()) books changed on both sides"
            : "three-way merge of two sides that each changed \(count.formatted()) documents of the set"
        var rows = [
            Comparison(
                workload: label, documents: documents, cairnSide: "cairn merge-tree",
                peerSide: "git merge-tree --write-tree", unit: "ms", target: .atMost(1)),
            Comparison(
                workload: label, documents: documents, cairnSide: "Store.mergeTree",
                peerSide: "git merge-tree --write-tree", unit: "ms", target: .atMost(1)),
        ]
        var expected: String?
        // Exit status 1 says the line merge left conflicts: expected here (any other failure
        // throws).
        let gitMergeTree = bench.gitCommand(peer, ["merge-tree", "--write-tree", "ours", "theirs"])
        let cairnMergeTree = bench.cairnCommand(home: home, ["merge-tree", "ours", "theirs"])
        let gitSide = { try gitMergeTree.timed(allowing: [1]) }
        // git merged every book and wrote a tree: each book in it differs from both sides (both
        // halves, or conflict markers where the lines of both sides meet). Documents drawn
        // from another set: git's tree takes something of each side.
        let gitTree = try gitMergeTree.output(allowing: [1]).prefix { $0 != "\n" }
        for side in ["ours", "theirs"] {
            let changed = try bench.gitCommand(peer, ["diff-tree", "-r", "--name-only", side, String(gitTree)]).run()
            let differing = changed.split(separator: "\n").count
            guard bench.generated == nil ? differing == count : differing > 0 else {
                throw Command.Failure(
                    description: bench.generated == nil
                        ? "git merge-tree's tree \(gitTree) differs from \(side) in \(differing) documents, not the \(count) books both sides changed"
                        : "git merge-tree's tree \(gitTree) is \(side) whole; the two sides' changes did not both reach it")
            }
        }
        for round in 0..<bench.rounds {
            try rows[0].measure(round: round, cairn: { try cairnMergeTree.timed() }, peer: gitSide)
            try rows[1].measure(
                round: round,
                cairn: {
                    try Stopwatch.milliseconds {
                        let tree = try store.mergeTree("ours", "theirs").tree.description
                        if expected == nil { expected = tree }
                        guard tree == expected else { throw Command.Failure(description: "two merges of the same commits gave two trees") }
                    }
                }, peer: gitSide)
        }
        try rows[0].measurePeaks(
            cairn: { try cairnMergeTree.peakMemory() },
            peer: { try gitMergeTree.peakMemory(allowing: [1]) })
        let merged = try bench.output(bench.cairn, ["--home", home, "merge-tree", "ours", "theirs"])
        guard merged.split(separator: "\n").first.map(String.init) == expected else {
            throw Command.Failure(description: "cairn merge-tree and Store.mergeTree disagree")
        }
        guard bench.generated == nil else { return rows }
        // The merged books hold both halves: the first book, read back from the merged tree.
        let first = try bench.output(bench.git, ["-C", storeFolder, "show", "\(expected!):users/u1/books/book-0.json"])
        guard Array((first + "\n").utf8) == Fixture.book(0, low: 1, high: 1).value.canonicalBytes() else {
            throw Command.Failure(description: "the merged book-0 is not the union of both sides' sections")
        }
        return rows
    }

    /// What each branch writes: the first half of the sections of up to 1,000 books on one,
    /// the second half on the other; or, for documents drawn from another set, up to 1,000
    /// of its documents changed on each side as two devices change them (and new documents
    /// of its append-only kinds).
    private func sides(documents: Int) throws -> (
        count: Int, ours: [(path: String, value: JSONValue)], theirs: [(path: String, value: JSONValue)]
    ) {
        guard let generated = bench.generated else {
            let count = min(Self.maximumBooks, Fixture(documents: documents).books)
            let side = { (low: Int, high: Int) in (0..<count).map { Fixture.book($0, low: low, high: high) } }
            return (count, side(1, 0), side(0, 1))
        }
        let all = try bench.documents(documents)
        let base = Dictionary(all.map { ($0.path, $0.value) }, uniquingKeysWith: { $1 })
        let count = min(Self.maximumBooks, documents / 2)
        var result: [[(path: String, value: JSONValue)]] = []
        for seed in [UInt64(31), 37] {
            var random = SplitMix(seed: seed)
            var current = base
            // Each document changed once on a side (the last change of it kept).
            var changed: [String: JSONValue] = [:]
            var order: [String] = []
            // A round may change again what an earlier one changed; rounds that add nothing
            // new are bounded.
            var stalled = 0
            while order.count < count {
                let before = order.count
                for (path, value) in try generated.changes(count - order.count, of: &current, time: 1_000, using: &random) {
                    if changed.updateValue(value, forKey: path) == nil { order.append(path) }
                }
                stalled = order.count == before ? stalled + 1 : 0
                guard stalled < 100 else {
                    throw Command.Failure(
                        description:
                            "the set's documents admit changes to \(order.count) of them, fewer than the \(count) a side changes; benchmark it with a larger store"
                    )
                }
            }
            result.append(order.map { ($0, changed[$0]!) })
        }
        return (count, result[0], result[1])
    }
}
