import CairnTestSupport

/// Restoring a user's progress on a new device: `cairn clone` against `git clone` of the
/// same remote, both given a `file://` URL (so git transfers a pack as it would over a
/// network, instead of hard-linking a local path's objects) or an HTTP one.
struct CloneBenchmark {
    let bench: Workbench

    enum Transport: String, CaseIterable {
        case file = "file://"
        case http = "HTTP on 127.0.0.1"
    }

    /// What the remote holds.
    enum Shape {
        /// The benchmark's store, as its syncs left the remote: the generated documents, and a
        /// pack for each push.
        case benchmarkStore
        /// Books only, in two checkpoints, packed into one pack (``Workbench/packedBooksRemote(documents:)``).
        case packedBooks
    }

    /// `timing` false: the row is wanted for its peak memory only (restoring 100,000 documents
    /// takes a minute a side).
    func run(documents: Int, transport: Transport, shape: Shape = .benchmarkStore, timing: Bool = true) throws -> Comparison {
        let work = try bench.scratch("clone-\(documents)")
        defer { if !bench.keep { bench.remove(work) } }
        let remotes = work + "/remote"
        let source =
            switch shape {
            case .benchmarkStore: try bench.remote(documents: documents)
            case .packedBooks: try bench.packedBooksRemote(documents: documents)
            }
        try bench.copy(source, to: remotes + "/u1.git")
        let password = "bench-password"
        var server: GitHTTPServer?
        defer { server?.stop() }
        var cairnURL = "file://" + remotes + "/u1.git"
        var gitURL = cairnURL
        var credentials: [String: String] = [:]
        if transport == .http {
            let started = try GitHTTPServer(root: remotes, users: ["u1": password])
            server = started
            cairnURL = started.url(for: "u1")
            gitURL = started.url(for: "u1", user: "u1", password: password)
            credentials = ["CAIRN_USERNAME": "u1", "CAIRN_PASSWORD": password]
        }
        var row = Comparison(
            workload: shape == .benchmarkStore
                ? "restore on a new device, over \(transport.rawValue)"
                : "restore of a freshly packed store of books, over \(transport.rawValue)",
            documents: documents,
            cairnSide: "cairn clone", peerSide: "git clone", unit: "ms", target: .atMost(1))
        let home = work + "/home"
        let plain = work + "/plain"
        let cairnClone = bench.cairnCommand(home: home, ["clone", "-q", cairnURL, "--user", "u1"], credentials)
        let gitClone = Command(bench.git, ["clone", "-q", gitURL, plain], environment: bench.environment)
        for round in 0..<(timing ? bench.rounds : 0) {
            let cairnSide = {
                let time = try cairnClone.timed()
                bench.remove(home)
                return time
            }
            let gitSide = {
                let time = try gitClone.timed()
                bench.remove(plain)
                return time
            }
            if round == 0 {
                // Once: both copies hold the same tree.
                try cairnClone.run()
                try gitClone.run()
                let (ours, theirs) = (try bench.tree(home + "/u1"), try bench.tree(plain))
                guard ours == theirs else {
                    throw Command.Failure(description: "clone at \(documents) documents: cairn's tree \(ours) is not git's \(theirs)")
                }
                bench.remove(home)
                bench.remove(plain)
            }
            try row.measure(round: round, cairn: cairnSide, peer: gitSide)
        }
        if transport == .file, shape == .benchmarkStore {
            try row.measurePeaks(
                cairn: {
                    defer { bench.remove(home) }
                    return try cairnClone.peakMemory()
                },
                peer: {
                    defer { bench.remove(plain) }
                    return try gitClone.peakMemory()
                })
        }
        return row
    }
}
