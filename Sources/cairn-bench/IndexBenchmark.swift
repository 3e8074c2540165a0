import CairnMerge
import Git
import GitFormat

#if canImport(Glibc)
import Glibc
#endif

/// Staging 10 changed documents and writing the index, on a repository of the store's size:
/// Cairn's `Index` writing it whole (version 2, the default below ``Index/splitThreshold``)
/// and split (git's split index, above it or under `core.splitIndex=true`) against `git
/// update-index -- <the 10 files>`, which hashes and stores them and writes git's whole index.
/// The figures decide from what size Cairn writes a split index.
struct IndexBenchmark {
    let bench: Workbench

    static let changed = 10

    func run(documents: Int) throws -> [Comparison] {
        let work = try bench.scratch("index-\(documents)")
        let (_, _, peer) = try bench.storeAndPeer(documents: documents, in: work)
        let forms: [(name: String, split: Bool)] = [("whole", false), ("split", true)]
        // Each form has its own copy and its own peer: a peer that had just stored the same
        // blobs for the other form would have nothing to write.
        var copies: [String] = []
        var peers: [String] = []
        for form in forms {
            let copy = work + "/" + form.name
            try bench.copy(peer, to: copy)
            copies.append(copy)
            peers.append(work + "/peer-" + form.name)
            try bench.copy(peer, to: peers[peers.count - 1])
            // The first write of a split index makes its shared part; the rounds then time
            // the small writes that follow, as a store's checkpoints do.
            let repository = try Repository(openingAt: copy)
            try repository.setConfig("core.splitIndex", to: form.split ? "true" : "false")
            let index = try repository.openIndex()
            try index.write()
        }
        var rows = forms.map { form in
            Comparison(
                workload: "stage 10 changed documents and write the index", documents: documents,
                cairnSide: "Index, \(form.name)", peerSide: "git update-index", unit: "ms", target: .none)
        }
        let fixture = Fixture(documents: documents)
        var rng = SplitMix(seed: 11)
        for round in 0..<bench.rounds {
            var changes: [(path: String, value: JSONValue)] = []
            for _ in 0..<Self.changed {
                changes.append(Fixture.book(Int(rng.next() % UInt64(fixture.books)), low: round + 1, high: 0))
            }
            let files = changes.map { $0.path + ".json" }
            for (index, form) in forms.enumerated() {
                let copy = copies[index]
                let peer = peers[index]
                for (path, value) in changes {
                    try Workbench.write(value.canonicalBytes(), to: peer + "/" + path + ".json")
                    try Workbench.write(value.canonicalBytes(), to: copy + "/" + path + ".json")
                }
                // The files just written reach the disk first, so that neither side's fsync
                // of its index pays for them.
                sync()
                try rows[index].measure(
                    round: round,
                    cairn: {
                        try Stopwatch.milliseconds {
                            try stage(changes.map { ($0.path + ".json", $0.value.canonicalBytes()) }, in: copy, split: form.split)
                        }
                    },
                    peer: {
                        try bench.gitCommand(peer, ["update-index", "--"] + files).timed()
                    })
            }
        }
        for (copy, peer) in zip(copies, peers) {
            let listed = try bench.output(bench.git, ["-C", copy, "ls-files", "-s"])
            guard listed == (try bench.output(bench.git, ["-C", peer, "ls-files", "-s"])) else {
                throw Command.Failure(
                    description: "index at \(documents) documents: \(copy) does not list what git's index lists; the comparison is void")
            }
        }
        return rows
    }

    /// What a checkpoint does to the index: each file hashed and stored, its entry staged
    /// with its stat data, the index written.
    private func stage(_ files: [(path: String, bytes: [UInt8])], in folder: String, split: Bool) throws {
        let repository = try Repository(openingAt: folder)
        let index = try Index.open(gitdir: repository.gitdir, splitIndex: split)
        for (file, bytes) in files {
            let absolute = folder + "/" + file
            let id = try repository.writeBlob(bytes)
            try index.stage(try IndexEntry.forFile(atPath: absolute, path: file, id: id))
        }
        try index.write()
    }
}
