import CairnCore
import CairnMerge
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What every workload shares: the tools, a scratch folder, the schema set, and the stores
/// generated for each size (built once, copied for each workload).
final class Workbench {
    let cairn: String
    let git = "/usr/bin/git"
    let folder: String
    let rounds: Int
    let keep: Bool
    let schemaSet: SchemaSetFiles
    /// The documents drawn from the schema set, when it is not the one ``Fixture`` is shaped
    /// after (`--schema`).
    let generated: GeneratedFixture?
    private var built: [Int: String] = [:]

    /// The environment of every git and cairn process: no user or system git configuration
    /// (both sides read the same, empty one), a fixed identity, no automatic gc.
    let environment: [String: String]

    init(cairn: String, folder: String, rounds: Int, keep: Bool, schemaFolder: String, generating: Bool = false) throws {
        self.cairn = cairn
        self.folder = folder
        self.rounds = rounds
        self.keep = keep
        guard let set = try SchemaSetFolder.read(schemaFolder) else {
            throw Command.Failure(description: "no schema set at \(schemaFolder); run the benchmark from the project's folder")
        }
        schemaSet = set
        generated = generating ? try GeneratedFixture(set: SchemaSet(readingProgress: set), name: set.name) : nil
        try FileManager.default.createDirectory(atPath: folder + "/gitconfig-home", withIntermediateDirectories: true)
        environment = [
            "HOME": folder + "/gitconfig-home",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@cairn.invalid",
            "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@cairn.invalid",
        ]
        try Command(git, ["config", "--global", "gc.auto", "0"], environment: environment).run()
        try Command(git, ["config", "--global", "init.defaultBranch", "main"], environment: environment).run()
        try Command(git, ["config", "--global", "pull.rebase", "false"], environment: environment).run()
        setenv("HOME", environment["HOME"]!, 1)
    }

    func run(_ executable: String, _ arguments: [String], _ extra: [String: String] = [:]) throws {
        try Command(executable, arguments, environment: environment.merging(extra) { $1 }).run()
    }

    func output(_ executable: String, _ arguments: [String]) throws -> String {
        try Command(executable, arguments, environment: environment).run().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func gitCommand(_ repository: String, _ arguments: [String], _ extra: [String: String] = [:]) -> Command {
        Command(git, ["-C", repository] + arguments, environment: environment.merging(extra) { $1 })
    }

    func cairnCommand(home: String, _ arguments: [String], _ extra: [String: String] = [:]) -> Command {
        Command(cairn, ["--home", home] + arguments, environment: environment.merging(extra) { $1 })
    }

    /// The tree of a repository's HEAD.
    func tree(_ repository: String) throws -> String {
        try output(git, ["-C", repository, "rev-parse", "HEAD^{tree}"])
    }

    /// A fresh folder in the scratch folder.
    func scratch(_ name: String) throws -> String {
        let path = folder + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func copy(_ source: String, to target: String) throws {
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(
            atPath: String(target[..<target.lastIndex(of: "/")!]),
            withIntermediateDirectories: true)
        try run("/bin/cp", ["-a", source, target])
    }

    func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The home (`CAIRN_HOME`) of a store of `documents` documents, committed in one
    /// checkpoint and pushed to `<home>/../remote/u1.git`. Built once per size; workloads
    /// copy it.
    func home(documents: Int) throws -> String {
        if let home = built[documents] { return home + "/home" }
        let base = try scratch("fixture-\(documents)")
        let start = Stopwatch.now()
        let home = Home(root: base + "/home")
        let store = try home.createStore(Fixture.uid, schemaSet: schemaSet, mergeDriver: cairn)
        var folders = Set<String>()
        for (path, value) in try self.documents(documents) {
            let file = store.folder + "/" + path + ".json"
            let parent = String(file[..<file.lastIndex(of: "/")!])
            if folders.insert(parent).inserted {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
            try Self.write(value.canonicalBytes(), to: file)
        }
        _ = try store.checkpoint(message: "\(documents) generated documents", scan: true)
        let seconds = (Stopwatch.now() - start) / 1_000
        say("  generated a store of \(documents.formatted()) documents in \(Samples.format(seconds)) s")
        built[documents] = base
        return base + "/home"
    }

    /// The documents of the store of `documents` documents: ``Fixture``'s, or drawn from the
    /// schema set.
    func documents(_ documents: Int) throws -> [(path: String, value: JSONValue)] {
        try generated?.all(documents: documents) ?? Fixture(documents: documents).all()
    }

    /// A bare remote the store of `home(documents:)` was pushed to (made on first use; the
    /// store's copies then sync with it).
    func remote(documents: Int) throws -> String {
        let home = try home(documents: documents)
        let remote = built[documents]! + "/remote/u1.git"
        if FileManager.default.fileExists(atPath: remote) { return remote }
        try run(git, ["init", "-q", "--bare", remote])
        let store = try Home(root: home).openStore(Fixture.uid)
        try store.setRemote(RemoteURL(remote))
        _ = try store.sync()
        return remote
    }

    /// A bare remote shaped unlike the benchmark's own store: `documents` books (nothing
    /// else) in two checkpoints, the second changing one book in ten, then packed by
    /// `git repack -a -d` into one pack, as a server's maintenance leaves a repository.
    func packedBooksRemote(documents: Int) throws -> String {
        let base = try scratch("packed-books-\(documents)")
        let store = try Home(root: base + "/home").createStore(Fixture.uid, schemaSet: schemaSet, mergeDriver: cairn)
        for (stamp, step) in [(0, 1), (1, 10)] {
            for number in stride(from: 0, to: documents, by: step) {
                let (path, value) = Fixture.book(number, low: stamp, high: stamp)
                let file = store.folder + "/" + path + ".json"
                if number == 0 {
                    try FileManager.default.createDirectory(
                        atPath: String(file[..<file.lastIndex(of: "/")!]),
                        withIntermediateDirectories: true)
                }
                try Self.write(value.canonicalBytes(), to: file)
            }
            _ = try store.checkpoint(message: "books at \(stamp)", scan: true)
        }
        let remote = base + "/remote/u1.git"
        try run(git, ["init", "-q", "--bare", remote])
        try store.setRemote(RemoteURL(remote))
        _ = try store.sync()
        try gitCommand(remote, ["repack", "-a", "-d", "-q"]).run()
        return remote
    }

    /// Writes a file as an app's document write would reach the disk, without fsync.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw Command.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Command.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            written += count
        }
    }

    /// A copy of the generated store of `documents` documents in `work` (its home, and the
    /// store's folder), and a plain git copy of that store beside it.
    func storeAndPeer(documents: Int, in work: String) throws -> (home: String, store: String, peer: String) {
        let home = work + "/home"
        try copy(try self.home(documents: documents), to: home)
        let store = home + "/" + Fixture.uid
        let peer = work + "/peer"
        try copy(store, to: peer)
        try makePlainGit(peer)
        return (home, store, peer)
    }

    /// Two devices of each kind in `work`, copies of the generated store of `documents`:
    /// Cairn's (`device-a`, `device-b`: each a home, its store open and syncing with
    /// `cairnRemote`) and git's (`peer-a`, `peer-b`: plain git copies whose `origin` is
    /// `peerRemote`, fetched with `gitEnvironment` added).
    func devicePairs(
        documents: Int, in work: String, cairnRemote: String, peerRemote: String,
        gitEnvironment: [String: String] = [:]
    ) throws -> (homes: [String], stores: [Store], peers: [String]) {
        var pairs: (homes: [String], stores: [Store], peers: [String]) = ([], [], [])
        for device in ["a", "b"] {
            let home = work + "/device-\(device)"
            try copy(try self.home(documents: documents), to: home)
            let store = try Home(root: home).openStore(Fixture.uid)
            try store.setRemote(RemoteURL(cairnRemote))
            pairs.homes.append(home)
            pairs.stores.append(store)
            let peer = work + "/peer-\(device)"
            try copy(home + "/" + Fixture.uid, to: peer)
            try makePlainGit(peer)
            try gitCommand(peer, ["remote", "set-url", "origin", peerRemote]).run()
            try gitCommand(peer, ["fetch", "-q", "origin"], gitEnvironment).run()
            pairs.peers.append(peer)
        }
        return pairs
    }

    /// Turns a copy of a store into the repository a git user would have: Cairn's own state
    /// gone, a plain index read from HEAD.
    func makePlainGit(_ repository: String) throws {
        remove(repository + "/.git/cairn")
        try gitCommand(repository, ["read-tree", "HEAD"]).run()
        _ = try? gitCommand(repository, ["update-index", "-q", "--refresh"]).run()
    }
}
