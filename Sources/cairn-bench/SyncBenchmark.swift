import CairnCore
import CairnMerge
import CairnTestSupport

/// Two devices that each changed 100 documents offline, half of them the same documents,
/// made to converge through one remote: `cairn sync` on the first, on the second (which
/// merges) and on the first again (which fast-forwards), against `git pull && git push` in
/// the same order on two clones whose `.gitattributes` send every document through `cairn
/// merge-driver`, as a git user of a store would do. Over a path remote and over smart HTTP
/// (lighttpd and git http-backend on 127.0.0.1): plain bare repositories, and the
/// repositories of `cairn server init` as a deployment has them (every pushed object checked
/// by git, Cairn's hooks run on every push). Both pairs must end on the same tree. Over HTTP,
/// the server's CPU time per sync is measured beside each side's time.
struct SyncBenchmark {
    let bench: Workbench

    enum Transport: String, CaseIterable {
        case path = "a path remote"
        case http = "HTTP on 127.0.0.1"
        case served = "HTTP on 127.0.0.1 to repositories of `cairn server init`"
    }

    /// Per device: 40 new attempts and 60 changed books, 50 of the books changed on both.
    static let newAttempts = 40
    static let changedBooks = 60
    static let sharedBooks = 50

    /// Where each side syncs to: the server (none for a path remote), the URLs, and the
    /// credentials Cairn's side gives.
    struct Remotes {
        var server: GitHTTPServer?
        var cairn: String
        var peer: String
        var credentials: [String: String] = [:]
    }

    /// Whose books changed on which device in a round, and the stamps each book last got.
    struct RoundChanges {
        var books: [(low: Int, high: Int)]
        var rng = SplitMix(seed: 11)
        var stamp = 0
    }

    func run(documents: Int, transport: Transport) throws -> Comparison {
        let work = try bench.scratch("sync-\(documents)")
        defer { if !bench.keep { bench.remove(work) } }
        let fixture = Fixture(documents: documents)
        let remotes = try serve(documents: documents, over: transport, in: work)
        defer { remotes.server?.stop() }

        // Two devices of each kind, copies of the generated store.
        let (homes, stores, peers) = try bench.devicePairs(
            documents: documents, in: work, cairnRemote: remotes.cairn,
            peerRemote: remotes.peer)

        var row = Comparison(
            workload: "sync of 100 changed documents on each of two devices, over \(transport.rawValue)",
            documents: documents, cairnSide: "cairn sync ×3", peerSide: "git pull && git push ×3, merge driver",
            unit: "ms", target: .fasterBy(10))
        var changes = RoundChanges(books: Array(repeating: (low: 0, high: 0), count: fixture.books))
        for round in 0..<bench.rounds {
            try write(round, fixture: fixture, stores: stores, peers: peers, changes: &changes)
            let cairnSide = {
                var total = 0.0
                for device in [0, 1, 0] {
                    total += try bench.cairnCommand(home: homes[device], ["sync", "-q"], remotes.credentials).timed()
                }
                return total
            }
            let gitSide = {
                var total = 0.0
                for device in [0, 1, 0] {
                    total += try bench.gitCommand(peers[device], ["pull", "-q", "--no-edit", "origin", "main"]).timed()
                    total += try bench.gitCommand(peers[device], ["push", "-q", "origin", "main"]).timed()
                }
                return total
            }
            if let server = remotes.server {
                // The server's CPU beside each side's time, per sync.
                let cpu = ServerCPU(pid: server.pid)
                var spent = (cairn: 0.0, peer: 0.0)
                try row.measure(
                    round: round,
                    cairn: {
                        let (time, used, _) = try cpu.spent(during: cairnSide)
                        spent.cairn = used
                        return time
                    },
                    peer: {
                        let (time, used, _) = try cpu.spent(during: gitSide)
                        spent.peer = used
                        return time
                    })
                row.cairnServer.append(spent.cairn / 3)
                row.peerServer.append(spent.peer / 3)
            } else {
                try row.measure(round: round, cairn: cairnSide, peer: gitSide)
            }
            let trees = try (homes.map { $0 + "/" + Fixture.uid } + peers).map { try bench.tree($0) }
            guard Set(trees).count == 1 else {
                throw Command.Failure(
                    description:
                        "sync at \(documents) documents, round \(round): the devices ended on different trees \(trees) (cairn a, cairn b, git a, git b); the comparison is void"
                )
            }
        }
        return row
    }

    /// The two remotes in `work`'s `remote/`, copies of the generated store (u1.git for Cairn,
    /// p1.git for git), plain or as `cairn server init` makes them, and served over HTTP
    /// unless the transport is a path.
    private func serve(documents: Int, over transport: Transport, in work: String) throws -> Remotes {
        let folder = work + "/remote"
        if transport == .served {
            // git's copy, p1.git, holds u1's progress too.
            try bench.cairnCommand(home: work + "/server-home", ["server", "init", folder, "u1", "p1"]).run()
            try bench.gitCommand(folder + "/p1.git", ["config", "cairn.uid", "u1"]).run()
            for name in ["u1", "p1"] {
                try bench.gitCommand(folder + "/\(name).git", ["fetch", "-q", try bench.remote(documents: documents), "main:main"]).run()
            }
        } else {
            try bench.copy(try bench.remote(documents: documents), to: folder + "/u1.git")
            try bench.copy(try bench.remote(documents: documents), to: folder + "/p1.git")
        }
        guard transport != .path else { return Remotes(cairn: folder + "/u1.git", peer: folder + "/p1.git") }
        // The hook lets only the store's owner push to it: to the served repositories, git's
        // side pushes as u1 too.
        let password = "bench-password"
        let server = try GitHTTPServer(
            root: folder, users: ["u1": password, "p1": password],
            access: transport == .served ? .anyUser : .owner)
        for name in ["u1", "p1"] {
            try bench.gitCommand(folder + "/\(name).git", ["config", "http.receivepack", "true"]).run()
        }
        return Remotes(
            server: server, cairn: server.url(for: "u1"),
            peer: server.url(for: "p1", user: transport == .served ? "u1" : "p1", password: password),
            credentials: ["CAIRN_USERNAME": "u1", "CAIRN_PASSWORD": password])
    }

    /// Round `round`'s changes, written and committed on both devices of each side: new
    /// attempts, and books changed on one device or on both (different sections).
    private func write(_ round: Int, fixture: Fixture, stores: [Store], peers: [String], changes: inout RoundChanges) throws {
        changes.stamp += 1
        let stamp = changes.stamp
        var numbers = Array(0..<fixture.books)
        numbers.shuffle(using: &changes.rng)
        let shared = numbers.prefix(Self.sharedBooks)
        let own = [
            numbers.dropFirst(Self.sharedBooks).prefix(Self.changedBooks - Self.sharedBooks),
            numbers.dropFirst(Self.changedBooks).prefix(Self.changedBooks - Self.sharedBooks),
        ]
        for device in 0..<2 {
            var written: [(path: String, value: JSONValue)] = []
            for k in 0..<Self.newAttempts {
                written.append(Fixture.attempt(fixture.attempts + round * 1_000 + device * 500 + k, &changes.rng))
            }
            for number in Array(shared) + Array(own[device]) {
                let state = changes.books[number]
                written.append(
                    device == 0
                        ? Fixture.book(number, low: stamp, high: state.high)
                        : Fixture.book(number, low: state.low, high: stamp))
            }
            for (path, value) in written {
                try stores[device].put(value, at: DocumentPath(path))
                try Workbench.write(value.canonicalBytes(), to: peers[device] + "/" + path + ".json")
            }
            _ = try stores[device].checkpoint(message: "round \(round)")
            try bench.gitCommand(peers[device], ["add", "--"] + written.map { $0.path + ".json" }).run()
            try bench.gitCommand(peers[device], ["commit", "-q", "-m", "round \(round)"]).run()
        }
        for number in shared { changes.books[number] = (stamp, stamp) }
        for number in own[0] { changes.books[number].low = stamp }
        for number in own[1] { changes.books[number].high = stamp }
    }
}
