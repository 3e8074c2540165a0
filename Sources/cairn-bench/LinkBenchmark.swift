import CairnCore
import CairnMerge
import CairnTestSupport
import Foundation

/// Syncs and restores over a phone's link: ``LinkProxy`` (100 ms round trip, 2 MB/s each
/// way) in front of lighttpd serving git's smart HTTP over HTTPS, with a certificate of its
/// own that both clients trust (`GIT_SSL_CAINFO`). Cairn's tool against `git pull && git
/// push` (the merge driver in place) and `git clone`, on copies of the same store, each
/// timed whole; the link's counts and lighttpd's access log give each side's requests,
/// connections, TLS handshakes and bytes each way.
struct LinkBenchmark {
    let bench: Workbench

    static let roundTrip = 0.1
    static let bytesPerSecond = 2_000_000.0
    static let link = "over a phone's link (100 ms round trip, 2 MB/s, HTTPS)"

    /// One side's traffic for one operation, averaged over the rounds.
    struct Traffic {
        var requests = 0.0
        var connections = 0.0
        var handshakes = 0.0
        var bytesUp = 0.0
        var bytesDown = 0.0

        var text: String {
            "\(Samples.format(requests)) requests, \(Samples.format(connections)) connections, "
                + "\(Samples.format(handshakes)) TLS handshakes, \(Self.size(bytesUp)) up, \(Self.size(bytesDown)) down"
        }

        static func size(_ bytes: Double) -> String {
            bytes >= 1_000_000 ? "\(Samples.format(bytes / 1_000_000)) MB" : "\(Samples.format(bytes / 1_000)) KB"
        }
    }

    /// A workload's figures for the report.
    struct Figures {
        var workload: String
        var documents: Int
        var cairn: Traffic
        var peer: Traffic
        /// The least round trips the protocol needs, and the floor they give with Cairn's bytes.
        var roundTrips: Int
        var floor: Double
    }

    /// The counts of one side, gathered around each of its timed runs.
    final class Counter {
        var link = LinkProxy.Traffic()
        var runs = 0

        /// Adds one run's traffic.
        func add(_ traffic: LinkProxy.Traffic) {
            link.connections += traffic.connections
            link.tlsHandshakes += traffic.tlsHandshakes
            link.bytesToServer += traffic.bytesToServer
            link.bytesToClient += traffic.bytesToClient
            runs += 1
        }

        /// The traffic per run, with the requests of one run.
        func traffic(requests: Int) -> Traffic {
            let runs = Double(max(runs, 1))
            return Traffic(
                requests: Double(requests), connections: Double(link.connections) / runs,
                handshakes: Double(link.tlsHandshakes) / runs, bytesUp: Double(link.bytesToServer) / runs,
                bytesDown: Double(link.bytesToClient) / runs)
        }
    }

    func run(documents: Int) throws -> (rows: [Comparison], figures: [Figures]) {
        let work = try bench.scratch("link-\(documents)")
        defer { if !bench.keep { bench.remove(work) } }
        let remotes = work + "/remote"
        for name in ["u1", "p1"] {
            try bench.copy(try bench.remote(documents: documents), to: remotes + "/\(name).git")
            try bench.gitCommand(remotes + "/\(name).git", ["config", "http.receivepack", "true"]).run()
        }
        let (certificate, key) = (work + "/certificate.pem", work + "/key.pem")
        try bench.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost",
            ])
        let password = "bench-password"
        let server = try GitHTTPServer(root: remotes, users: ["u1": password, "p1": password], tls: (certificate, key))
        defer { server.stop() }
        let link = try LinkProxy(upstreamPort: server.port, roundTrip: Self.roundTrip, bytesPerSecond: Self.bytesPerSecond)
        defer { link.stop() }
        let trust = ["GIT_SSL_CAINFO": certificate, "GIT_SSL_CAPATH": ""]
        let credentials = trust.merging(["CAIRN_USERNAME": "u1", "CAIRN_PASSWORD": password]) { $1 }
        let cairnURL = "https://u1@localhost:\(link.port)/git/u1.git"
        let peerURL = "https://p1:\(password)@localhost:\(link.port)/git/p1.git"

        // Two devices of each kind, copies of the generated store, synced once.
        let (homes, stores, peers) = try bench.devicePairs(
            documents: documents, in: work, cairnRemote: cairnURL,
            peerRemote: peerURL, gitEnvironment: trust)
        let sync = { (device: Int) in bench.cairnCommand(home: homes[device], ["sync", "-q"], credentials) }
        let pullAndPush = { (device: Int) in
            {
                try bench.gitCommand(peers[device], ["pull", "-q", "--no-edit", "origin", "main"], trust).timed()
                    + bench.gitCommand(peers[device], ["push", "-q", "origin", "main"], trust).timed()
            }
        }
        for device in 0..<2 { _ = try sync(device).timed() }

        var rows: [Comparison] = []
        var figures: [Figures] = []
        let fixture = Fixture(documents: documents)
        var books = Array(repeating: (low: 0, high: 0), count: fixture.books)
        var stamp = 0
        /// Writes the same books on a Cairn device and its git twin, and commits both (untimed).
        func change(_ device: Int, books numbers: some Sequence<Int>, firstHalf: Bool) throws {
            stamp += 1
            var paths: [String] = []
            for number in numbers {
                let state = books[number]
                let (path, value) =
                    firstHalf
                    ? Fixture.book(number, low: stamp, high: state.high)
                    : Fixture.book(number, low: state.low, high: stamp)
                try stores[device].put(value, at: DocumentPath(path))
                try Workbench.write(value.canonicalBytes(), to: peers[device] + "/" + path + ".json")
                paths.append(path + ".json")
            }
            for number in numbers {
                if firstHalf { books[number].low = stamp } else { books[number].high = stamp }
            }
            _ = try stores[device].checkpoint(message: "change \(stamp)")
            try bench.gitCommand(peers[device], ["add", "--"] + paths).run()
            try bench.gitCommand(peers[device], ["commit", "-q", "-m", "change \(stamp)"]).run()
        }

        /// Times `cairnSide` against `peerSide` in rounds (each after `prepare`), counting
        /// each side's traffic; the requests are read from lighttpd's log, whose lines name
        /// each side's repository.
        func measure(
            _ workload: String, cairnSide: String, peerSide: String, roundTrips: Int,
            prepare: (Int) throws -> Void, cairn: @escaping () throws -> Double,
            peer: @escaping () throws -> Double
        ) throws {
            var row = Comparison(
                workload: "\(workload), \(Self.link)", documents: documents, cairnSide: cairnSide,
                peerSide: peerSide, unit: "ms", target: .fasterBy(2))
            let counters = (cairn: Counter(), peer: Counter())
            func counted(_ side: @escaping () throws -> Double, into counter: Counter) -> () throws -> Double {
                {
                    link.reset()
                    let time = try side()
                    counter.add(link.traffic)
                    return time
                }
            }
            for round in 0..<bench.rounds {
                try prepare(round)
                try row.measure(round: round, cairn: counted(cairn, into: counters.cairn), peer: counted(peer, into: counters.peer))
            }
            // The requests of one more run of each side, apart: lighttpd writes its access log
            // out every 4 seconds, so each side's lines are read once they are written.
            try prepare(bench.rounds)
            func requests(of side: () throws -> Double, in repository: String) throws -> Int {
                usleep(4_500_000)
                let before = server.accessLogLines.count
                _ = try side()
                usleep(4_500_000)
                return server.accessLogLines.dropFirst(before).filter { $0.contains("/git/\(repository).git/") }.count
            }
            let cairnTraffic = counters.cairn.traffic(requests: try requests(of: cairn, in: "u1"))
            let peerTraffic = counters.peer.traffic(requests: try requests(of: peer, in: "p1"))
            let floor =
                (Double(roundTrips) * Self.roundTrip + max(cairnTraffic.bytesUp, cairnTraffic.bytesDown) / Self.bytesPerSecond) * 1_000
            var toFloor = Comparison(
                workload: row.workload, documents: documents, cairnSide: cairnSide,
                peerSide: "the floor: \(roundTrips) round trips + bytes ÷ bandwidth", unit: "ms", target: .atMost(1.5))
            toFloor.cairn = row.cairn
            toFloor.peer.append(floor)
            rows += [row, toFloor]
            figures.append(
                Figures(
                    workload: workload, documents: documents, cairn: cairnTraffic, peer: peerTraffic,
                    roundTrips: roundTrips, floor: floor))
            say(
                "  \(workload) over the link at \(documents.formatted()): cairn \(row.cairn.summary) ms (\(cairnTraffic.text)), "
                    + "git \(row.peer.summary) ms (\(peerTraffic.text)), floor \(Samples.format(floor)) ms")
        }

        // Restore first, while both remotes hold the same history.
        let restored = (cairn: work + "/restored", peer: work + "/restored-git")
        try measure(
            "restore on a new device", cairnSide: "cairn clone", peerSide: "git clone", roundTrips: 5,
            prepare: { _ in
                bench.remove(restored.cairn)
                bench.remove(restored.peer)
            },
            cairn: { try bench.cairnCommand(home: restored.cairn, ["clone", "-q", cairnURL, "--user", "u1"], credentials).timed() },
            peer: {
                try Command(bench.git, ["clone", "-q", peerURL, restored.peer], environment: bench.environment.merging(trust) { $1 })
                    .timed()
            })
        try measure(
            "a sync with nothing to do", cairnSide: "cairn sync", peerSide: "git pull && git push", roundTrips: 4,
            prepare: { _ in }, cairn: { try sync(0).timed() }, peer: pullAndPush(0))
        try measure(
            "a sync that pushes 10 changed documents", cairnSide: "cairn sync", peerSide: "git pull && git push",
            roundTrips: 5, prepare: { round in try change(0, books: (0..<10).map { (round * 10 + $0) % fixture.books }, firstHalf: true) },
            cairn: { try sync(0).timed() }, peer: pullAndPush(0))
        try measure(
            "a sync that merges 100 documents changed on both devices", cairnSide: "cairn sync",
            peerSide: "git pull && git push, merge driver", roundTrips: 7,
            prepare: { round in
                // Both devices start from the remote; each changes its half of the same books.
                for device in 0..<2 {
                    _ = try sync(device).timed()
                    _ = try pullAndPush(device)()
                }
                let numbers = (0..<100).map { (round * 100 + $0) % fixture.books }
                try change(0, books: numbers, firstHalf: true)
                try change(1, books: numbers, firstHalf: false)
                _ = try sync(0).timed()
                _ = try pullAndPush(0)()
            },
            cairn: { try sync(1).timed() }, peer: pullAndPush(1))
        // After a last sync of each, both Cairn devices hold one tree, and both git clones one.
        for device in [0, 1, 0] {
            _ = try sync(device).timed()
            _ = try pullAndPush(device)()
        }
        let trees = try (homes.map { $0 + "/" + Fixture.uid } + peers).map { try bench.tree($0) }
        guard trees[0] == trees[1], trees[2] == trees[3] else {
            throw Command.Failure(
                description: "link at \(documents) documents: the devices did not converge \(trees) (cairn a, cairn b, git a, git b)")
        }
        return (rows, figures)
    }
}
