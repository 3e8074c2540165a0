import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import Foundation

/// Where a server's CPU for one push goes, part by part. A repository of `cairn server init`
/// (the life-in-uk set, Cairn's hooks) holds the benchmark's store; a device changes one book,
/// checkpoints and pushes with git, and the request its push sent (the commands and the pack)
/// is kept. That request is then replayed into the repository, its branch set back before
/// each replay, through each layer of a server in turn: `git http-backend` as a web server
/// runs it, `git receive-pack` alone, `git receive-pack` with no hooks, `git unpack-objects
/// --strict` on its pack alone, and each hook alone as git starts it. Each figure is the CPU of
/// the process and of every process it waited for (`wait4`); a part is the difference
/// between two layers in the same round.
struct PushCostBenchmark {
    let bench: Workbench

    /// The most CPU (ms) Cairn's two hooks may add to a push at 1,000 documents.
    static let hookLimit = 10.0

    /// Rows: figure, value.
    func run(documents: Int) throws -> [(String, String)] {
        let work = try bench.scratch("push-cost-\(documents)")
        defer { if !bench.keep { bench.remove(work) } }
        let uid = Fixture.uid
        let root = work + "/repos"
        let repository = root + "/\(uid).git"
        try bench.cairnCommand(home: work + "/admin", ["server", "init", root, uid, "--schema", "life-in-uk"]).run()
        // The server holds the benchmark's store (fetched: no hook runs for it).
        try bench.gitCommand(repository, ["fetch", "-q", try bench.remote(documents: documents), "main:main"]).run()
        let home = work + "/device"
        try bench.copy(try bench.home(documents: documents), to: home)
        let store = try Home(root: home).openStore(uid)
        let noHooks = try bench.scratch("push-cost-\(documents)/no-hooks")
        let server = ["REMOTE_USER": uid]
        let cgi = server.merging([
            "GIT_PROJECT_ROOT": root, "GIT_HTTP_EXPORT_ALL": "1", "GATEWAY_INTERFACE": "CGI/1.1",
        ]) { $1 }

        var parts = Parts()
        for round in 0..<bench.rounds {
            let old = try head(of: repository)
            let (path, value) = Fixture.book(round, low: 1_000 + round, high: 1_000 + round)
            _ = try store.put(value, at: DocumentPath(path))
            _ = try store.checkpoint(message: "push \(round)")
            // The push as a device's git sends it, its request kept on the way in.
            let request = work + "/request-\(round)"
            try bench.gitCommand(
                store.folder, ["push", "-q", "--receive-pack=tee '\(request)' | git-receive-pack", repository, "main"], server
            ).run()
            let new = try head(of: repository)
            guard new != old else { throw Command.Failure(description: "push cost: the push did not move main") }
            let update = work + "/update-\(round)"
            try Data("\(old) \(new) refs/heads/main\n".utf8).write(to: URL(fileURLWithPath: update))
            let pack = work + "/pack-\(round)"
            try Self.pack(of: request, to: pack)
            let length = try FileManager.default.attributesOfItem(atPath: request)[.size] as? Int ?? 0

            // Each replay starts from the branch as the device found it, and must move it.
            func replay(_ arguments: [String], _ environment: [String: String]) throws -> Double {
                try bench.gitCommand(repository, ["update-ref", "refs/heads/main", old]).run()
                let spent = try cpu(bench.git, arguments, environment: environment, input: request)
                guard try head(of: repository) == new else {
                    throw Command.Failure(description: "push cost: git \(arguments.joined(separator: " ")) did not update main")
                }
                return spent
            }
            // Each hook as git starts it: in the repository, the update on its standard input.
            func hook(_ name: String) throws -> Double {
                try cpu(
                    repository + "/hooks/" + name, [], environment: server.merging(["GIT_DIR": "."]) { $1 }, input: update,
                    folder: repository)
            }
            parts.postReceive.append(try hook("post-receive"))
            try bench.gitCommand(repository, ["update-ref", "refs/heads/main", old]).run()
            parts.preReceive.append(try hook("pre-receive"))
            let report = work + "/hooks-\(round)"
            let withHooks = try replay(["receive-pack", repository], server.merging([HookReport.variable: report]) { $1 })
            let preAsRun = HookReport.read(from: report).filter { $0.hook == ReceiveHook.preReceive.rawValue }
            guard preAsRun.count == 1 else { throw Command.Failure(description: "push cost: the pre-receive hook did not report once") }
            let withoutHooks = try replay(["-c", "core.hooksPath=" + noHooks, "receive-pack", repository], server)
            let whole = try replay(
                ["http-backend"],
                cgi.merging([
                    "REQUEST_METHOD": "POST", "PATH_INFO": "/\(uid).git/git-receive-pack", "QUERY_STRING": "",
                    "CONTENT_TYPE": "application/x-git-receive-pack-request", "CONTENT_LENGTH": "\(length)",
                ]) { $1 })
            let unpacking = try cpu(
                bench.git, ["--git-dir", repository, "unpack-objects", "--strict", "-q"], environment: [:], input: pack)
            let advertisement = try cpu(
                bench.git, ["http-backend"],
                environment: cgi.merging([
                    "REQUEST_METHOD": "GET", "PATH_INFO": "/\(uid).git/info/refs", "QUERY_STRING": "service=git-receive-pack",
                ]) { $1 }, input: "/dev/null")

            parts.whole.append(whole)
            parts.httpBackend.append(whole - withHooks)
            parts.hooks.append(withHooks - withoutHooks)
            parts.preReceiveAsRun.append(preAsRun[0].cpuSeconds * 1_000)
            parts.receivePack.append(withoutHooks - unpacking)
            parts.unpacking.append(unpacking)
            parts.advertisement.append(advertisement)
        }
        let size = "\(documents.formatted()) documents"
        // The target is set at 1,000 documents; at other sizes the figure is reported alone.
        let verdict = documents != 1_000 ? "" : parts.hooks.median <= Self.hookLimit ? " (met)" : " (**not met**)"
        let target = documents != 1_000 ? "" : "; target ≤ \(Samples.format(Self.hookLimit))"
        return [
            ("a push of one changed book at \(size), its request through `git http-backend`: in all (ms)", parts.whole.summary),
            ("of which `git http-backend` itself (ms)", parts.httpBackend.summary),
            ("of which `git receive-pack` (refs, its report, `gc --auto`) (ms)", parts.receivePack.summary),
            ("of which unpacking and checking the pushed objects (`git unpack-objects --strict`) (ms)", parts.unpacking.summary),
            ("of which Cairn's two hooks, as `git receive-pack` runs them (ms\(target))", parts.hooks.summary + verdict),
            (
                "the pre-receive hook's process, as it reported its CPU to `\(HookReport.variable)` when `git receive-pack` ran it (ms)",
                parts.preReceiveAsRun.summary
            ),
            ("the pre-receive hook, run alone as git starts it (ms)", parts.preReceive.summary),
            ("the post-receive hook, run alone as git starts it (ms)", parts.postReceive.summary),
            ("before the push, its ref advertisement (`GET info/refs?service=git-receive-pack`) (ms)", parts.advertisement.summary),
        ]
    }

    /// The CPU figures of each round, by part.
    struct Parts {
        var whole = Samples()
        var httpBackend = Samples()
        var receivePack = Samples()
        var unpacking = Samples()
        var hooks = Samples()
        var preReceive = Samples()
        var preReceiveAsRun = Samples()
        var postReceive = Samples()
        var advertisement = Samples()
    }

    func head(of repository: String) throws -> String {
        try bench.output(bench.git, ["--git-dir", repository, "rev-parse", "refs/heads/main"])
    }

    /// The CPU (ms) of `executable` run to its end with `input` on its standard input (in
    /// `folder` if given), and of every process it waited for.
    func cpu(
        _ executable: String, _ arguments: [String], environment: [String: String], input: String,
        folder: String? = nil
    ) throws -> Double {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(bench.environment.merging(environment) { $1 }) { $1 }
        process.currentDirectoryURL = folder.map { URL(fileURLWithPath: $0) }
        process.standardInput = FileHandle(forReadingAtPath: input)
        process.standardOutput = nil
        let errors = input + ".errors"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw Command.Failure(
                description:
                    "push cost: \(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(said)")
        }
        return process.cpuMilliseconds
    }

    /// Writes the pack a push's request carries (after its commands' flush) to `target`.
    static func pack(of request: String, to target: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: request)))
        let signature = Array("0000PACK".utf8)
        guard
            let start = (0...(bytes.count - signature.count)).first(where: { bytes[$0..<($0 + signature.count)].elementsEqual(signature) })
        else {
            throw Command.Failure(description: "push cost: no pack in the request \(request)")
        }
        try Data(bytes[(start + 4)...]).write(to: URL(fileURLWithPath: target))
    }
}
