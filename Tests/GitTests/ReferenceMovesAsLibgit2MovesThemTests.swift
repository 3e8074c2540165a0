import CGit2
import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// Cairn moves references itself (``LooseReference``), not through libgit2, which would also
/// fsync every reflog and its folder. What it leaves must be what libgit2's
/// `git_reference_create_matching` leaves in a twin repository, file for file and line for
/// line, and what git reads: the same ids, the same reflogs, the same refusals.
@Suite struct ReferenceMovesAsLibgit2MovesThemTests {
    let temporary = TemporaryFolder("cairn-references")

    /// Two repositories holding the same commits, one moved by Cairn and one by libgit2.
    struct Twins {
        let cairn: Repository
        let libgit2: Repository
        let commits: [ObjectID]
    }

    func twins(bare: Bool = false, configuration: [String] = []) throws -> Twins {
        var repositories: [Repository] = []
        var commits: [ObjectID] = []
        for side in ["cairn", "libgit2"] {
            let path = temporary.path + "/" + side
            let repository = try Repository.create(at: path, initialBranch: "main", bare: bare)
            let gitdir = bare ? path : path + "/.git"
            try git("config", "user.name", "Ada", in: gitdir)
            try git("config", "user.email", "ada@example.invalid", in: gitdir)
            for setting in configuration {
                let parts = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                try git("config", parts[0], parts[1], in: gitdir)
            }
            // The same commits on both sides: same tree, signature and time give the same ids.
            let signature = Signature(name: "Ada", email: "ada@example.invalid", time: 1_700_000_000)
            var parent: ObjectID?
            var made: [ObjectID] = []
            for number in 0..<4 {
                let blob = try repository.writeBlob(Array("{\"n\":\(number)}".utf8))
                let tree = try repository.updateTree(ObjectID.emptyTree, with: [.upsert(path: "d.json", id: blob, mode: 0o100644)]).id
                let commit = try repository.createCommit(
                    tree: tree, parents: parent.map { [$0] } ?? [], message: "c\(number)\n",
                    author: signature, committer: signature, updating: nil)
                made.append(commit)
                parent = commit
            }
            commits = made
            repositories.append(repository)
        }
        return Twins(cairn: repositories[0], libgit2: repositories[1], commits: commits)
    }

    /// libgit2's own move, as `Repository.setReference` made it before.
    func libgit2Move(_ repository: Repository, _ name: String, to id: ObjectID, expecting expected: ObjectID?, message: String) -> Int32 {
        var reference: OpaquePointer?
        var raw = id.raw
        let result: Int32
        if let expected {
            var old = expected.raw
            result = git_reference_create_matching(&reference, repository.handle, name, &raw, 1, &old, message)
        } else {
            result = git_reference_create(&reference, repository.handle, name, &raw, 0, message)
        }
        git_reference_free(reference)
        return result
    }

    /// Every file under the git folder's `refs/` and `logs/`, and `packed-refs`, with each
    /// reflog line's seconds (the moment of the move) left out; its time zone stays.
    func referenceFiles(_ repository: Repository) throws -> [String: String] {
        var files: [String: String] = [:]
        let root = repository.gitdir
        for top in ["refs", "logs"] {
            guard let walker = FileManager.default.enumerator(atPath: root + top) else { continue }
            while let relative = walker.nextObject() as? String {
                var isFolder: ObjCBool = false
                let path = root + top + "/" + relative
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                files[top + "/" + relative] = try timeless(String(contentsOfFile: path, encoding: .utf8))
            }
        }
        if let packed = try? String(contentsOfFile: root + "packed-refs", encoding: .utf8) { files["packed-refs"] = packed }
        return files
    }

    func timeless(_ text: String) -> String {
        text.replacing(/> \d+ ([+-]\d{4})/) { "> SECONDS \($0.1)" }
    }

    @Test func createsMovesAndLogsAsLibgit2() throws {
        let twins = try twins()
        let c = twins.commits
        let moves: [(String, ObjectID, ObjectID?, String)] = [
            ("refs/heads/main", c[0], nil, "commit (initial): c0"),
            ("refs/heads/main", c[1], c[0], "commit: c1"),
            ("refs/remotes/origin/main", c[1], nil, "restore: copied from /srv/u1.git"),
            ("refs/heads/main", c[2], c[1], "merge: two lines\nin one message\n"),
            ("refs/remotes/origin/main", c[2], c[1], "cairn: pushed"),
            // The same value again: nothing written, no reflog line.
            ("refs/heads/main", c[2], c[2], "commit: nothing"),
            ("refs/heads/main", c[3], c[2], ""),
            // Not under heads/, remotes/ or notes/: no reflog with logAllRefUpdates true.
            ("refs/cairn/other", c[3], nil, "other"),
        ]
        for (name, id, expected, message) in moves {
            try twins.cairn.setReference(name, to: id, expecting: expected, message: message)
            #expect(libgit2Move(twins.libgit2, name, to: id, expecting: expected, message: message) == 0)
        }
        let ours = try referenceFiles(twins.cairn)
        #expect(ours == (try referenceFiles(twins.libgit2)))
        #expect(ours["logs/HEAD"]?.split(separator: "\n").count == 4)
        #expect(ours["logs/refs/heads/main"]?.contains("merge: two lines in one message\n") == true)
        // git reads the same history in both.
        for repository in [twins.cairn, twins.libgit2] {
            let reflog = try git("reflog", "show", "--format=%H %gs", "main", in: repository.gitdir)
            #expect(reflog.stdout.split(separator: "\n").map { String($0.prefix(40)) } == [c[3], c[2], c[1], c[0]].map(\.hex))
            #expect(try git("rev-parse", "refs/remotes/origin/main", in: repository.gitdir).stdout == c[2].hex + "\n")
            #expect(try git("fsck", "--no-dangling", in: repository.gitdir).status == 0)
        }
    }

    @Test func followsLogAllRefUpdates() throws {
        for (bare, setting) in [
            (true, nil), (false, "core.logAllRefUpdates=false"), (false, "core.logAllRefUpdates=always"),
            (true, "core.logAllRefUpdates=true"), (false, "core.logAllRefUpdates=2"),
            (false, "core.logAllRefUpdates="),
        ] as [(Bool, String?)] {
            try? FileManager.default.removeItem(atPath: temporary.path)
            let twins = try twins(bare: bare, configuration: setting.map { [$0] } ?? [])
            let c = twins.commits
            // A reference outside the usual prefixes that has a reflog already.
            for repository in [twins.cairn, twins.libgit2] {
                try FileManager.default.createDirectory(atPath: repository.gitdir + "logs/refs/cairn", withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: repository.gitdir + "logs/refs/cairn/logged", contents: Data())
            }
            for (name, id, expected) in [
                ("refs/heads/main", c[0], nil), ("refs/heads/main", c[1], c[0]),
                ("refs/cairn/x", c[1], nil), ("refs/cairn/logged", c[2], nil),
            ] as [(String, ObjectID, ObjectID?)] {
                try twins.cairn.setReference(name, to: id, expecting: expected, message: "move")
                #expect(libgit2Move(twins.libgit2, name, to: id, expecting: expected, message: "move") == 0)
            }
            #expect(try referenceFiles(twins.cairn) == (try referenceFiles(twins.libgit2)), "bare: \(bare), \(setting ?? "unset")")
        }
    }

    @Test func movesAReferenceOnlyPackedRefsHolds() throws {
        let twins = try twins()
        let c = twins.commits
        for repository in [twins.cairn, twins.libgit2] {
            try git("update-ref", "refs/heads/main", c[0].hex, in: repository.gitdir)
            try git("pack-refs", "--all", in: repository.gitdir)
            #expect(!FileManager.default.fileExists(atPath: repository.gitdir + "refs/heads/main"))
        }
        try twins.cairn.setReference("refs/heads/main", to: c[1], expecting: c[0], message: "commit: c1")
        #expect(libgit2Move(twins.libgit2, "refs/heads/main", to: c[1], expecting: c[0], message: "commit: c1") == 0)
        #expect(try referenceFiles(twins.cairn) == (try referenceFiles(twins.libgit2)))
        #expect(try twins.cairn.reference("refs/heads/main") == c[1])
        #expect(try git("rev-parse", "main", in: twins.cairn.gitdir).stdout == c[1].hex + "\n")
    }

    @Test func refusesWhatLibgit2RefusesAndLeavesNothingBehind() throws {
        let twins = try twins()
        let c = twins.commits
        let repository = twins.cairn
        try repository.setReference("refs/heads/main", to: c[0], expecting: nil, message: "commit (initial): c0")
        let before = try referenceFiles(repository)

        // Moved meanwhile: the expected value is not the one it holds.
        var error = #expect(throws: GitError.self) {
            try repository.setReference("refs/heads/main", to: c[2], expecting: c[1], message: "commit: c2")
        }
        #expect(error?.code == .modified)
        #expect(libgit2Move(twins.libgit2, "refs/heads/main", to: c[0], expecting: nil, message: "x") == 0)
        #expect(libgit2Move(twins.libgit2, "refs/heads/main", to: c[2], expecting: c[1], message: "x") == GIT_EMODIFIED.rawValue)

        // Created when it exists.
        error = #expect(throws: GitError.self) {
            try repository.setReference("refs/heads/main", to: c[2], expecting: nil, message: "commit: c2")
        }
        #expect(error?.code == .exists)
        #expect(libgit2Move(twins.libgit2, "refs/heads/main", to: c[2], expecting: nil, message: "x") == GIT_EEXISTS.rawValue)
        #expect(try referenceFiles(repository) == before)
        #expect(!FileManager.default.fileExists(atPath: repository.gitdir + "refs/heads/main.lock"))

        // Another git process holds the lock: refused, and its lock is left to it.
        let lock = repository.gitdir + "refs/heads/main.lock"
        for holder in [repository, twins.libgit2] {
            _ = FileManager.default.createFile(atPath: holder.gitdir + "refs/heads/main.lock", contents: Data("held\n".utf8))
        }
        error = #expect(throws: GitError.self) {
            try repository.setReference("refs/heads/main", to: c[1], expecting: c[0], message: "commit: c1")
        }
        #expect(error?.code == .locked)
        #expect(libgit2Move(twins.libgit2, "refs/heads/main", to: c[1], expecting: c[0], message: "x") != 0)
        #expect(try String(contentsOfFile: lock, encoding: .utf8) == "held\n")
        try FileManager.default.removeItem(atPath: lock)
        #expect(try referenceFiles(repository) == before)
        // git refuses to move it while Cairn would hold it too: the same lock file.
        try repository.setReference("refs/heads/main", to: c[1], expecting: c[0], message: "commit: c1")
        _ = FileManager.default.createFile(atPath: lock, contents: Data())
        #expect(try git("update-ref", "refs/heads/main", c[2].hex, in: repository.gitdir).status != 0)
        try FileManager.default.removeItem(atPath: lock)
        #expect(try git("rev-parse", "main", in: repository.gitdir).stdout == c[1].hex + "\n")
    }

    /// Time zones west of Greenwich are written with a minus, as libgit2 writes them.
    @Test func writesTheTimeZoneAsLibgit2() async {
        await #expect(processExitsWith: .success) {
            setenv("TZ", "EST5", 1)
            tzset()
            let suite = ReferenceMovesAsLibgit2MovesThemTests()
            guard let twins = try? suite.twins() else { exit(3) }
            try twins.cairn.setReference("refs/heads/main", to: twins.commits[0], expecting: nil, message: "m")
            if suite.libgit2Move(twins.libgit2, "refs/heads/main", to: twins.commits[0], expecting: nil, message: "m") != 0 { exit(4) }
            let ours = try suite.referenceFiles(twins.cairn)
            if ours != (try suite.referenceFiles(twins.libgit2)) { exit(5) }
            if ours["logs/HEAD"]?.contains("> SECONDS -0500\tm\n") != true { exit(6) }
        }
    }

    /// Two moves of one branch from the same commit at once: one lands, the other is refused
    /// (the branch moved, or its lock was held), and the branch and its reflog say so.
    @Test func oneOfTwoRacingMovesLands() throws {
        let twins = try twins()
        let c = twins.commits
        try twins.cairn.setReference("refs/heads/main", to: c[0], expecting: nil, message: "commit (initial): c0")
        let other = try Repository(openingAt: twins.cairn.gitdir)
        // One handle a thread, as two processes would have.
        nonisolated(unsafe) let handles = [twins.cairn, other]
        for _ in 0..<20 {
            let base = try #require(try twins.cairn.reference("refs/heads/main"))
            let targets = [c[1], c[2]].filter { $0 != base }
            let outcomes = RaceOutcomes()
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                do {
                    try handles[lane].setReference("refs/heads/main", to: targets[lane % targets.count], expecting: base, message: "race")
                    outcomes.record(lane, nil)
                } catch let error as GitError {
                    outcomes.record(lane, error.code)
                } catch {
                    outcomes.record(lane, .generic)
                }
            }
            let codes = outcomes.codes
            let landed = codes.filter { $0 == nil }.count
            #expect(landed <= 1, "both moves landed")
            #expect(codes.compactMap { $0 }.allSatisfy { $0 == .modified || $0 == .locked }, "\(codes)")
            if landed == 0 { continue }
            let now = try #require(try twins.cairn.reference("refs/heads/main"))
            #expect(now != base)
            let last =
                try String(contentsOfFile: twins.cairn.gitdir + "logs/refs/heads/main", encoding: .utf8)
                .split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.hasPrefix(base.hex + " " + now.hex), "\(last)")
        }
    }

    @Test func refusesANameGitWouldRefuse() throws {
        let twins = try twins()
        for name in ["refs/heads/../../config", "refs/heads/a..b", "HEAD", "main", "refs/heads/x.lock", "refs/heads/"] {
            let error = #expect(throws: GitError.self) {
                try twins.cairn.setReference(name, to: twins.commits[0], expecting: nil, message: "m")
            }
            #expect(error?.code == .invalidSpec, "\(name)")
        }
        #expect(try git("config", "user.name", in: twins.cairn.gitdir).stdout == "Ada\n")
    }
}
