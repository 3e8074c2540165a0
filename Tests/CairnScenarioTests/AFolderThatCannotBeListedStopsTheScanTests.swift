import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A checkpoint that scans the working tree (`--scan`, or after another git tool changed the
/// store) lists every folder. A folder of the last checkpoint that it cannot list (its
/// permissions, an I/O error, a process out of descriptors) is not an empty one: the
/// checkpoint stops with one line and commits nothing, instead of committing its documents as
/// deleted; a folder the last checkpoint has nothing in is passed over. A pending document
/// that cannot be looked at stops the checkpoint the same way.
@Suite(.historiesVerified) struct AFolderThatCannotBeListedStopsTheScanTests {
    /// Runs `cairn ARGUMENTS` with every `call` on `path` failing with `EACCES`; requires that
    /// strace injected the error at least once.
    func failing(_ call: String, on path: String, _ cli: CLI, _ arguments: [String]) throws -> ProcessResult {
        let trace = cli.scratch("trace-\(call)")
        let result = try runProcess(
            SyscallTracer.executable,
            [
                "-f", "-qq", "-o", trace, "-P", path, "-e", "trace=\(call)",
                "-e", "inject=\(call):error=EACCES", CLI.executable, "--home", cli.home,
            ] + arguments)
        try #require(
            try String(contentsOfFile: trace, encoding: .utf8).contains("(INJECTED)"),
            "no \(call) of \(path) failed: the test proves nothing")
        return result
    }

    func store(_ cli: CLI) throws {
        #expect(try cli("init", "u1").status == 0)
        for number in 1...3 {
            #expect(try cli("put", "users/u1/books/b\(number)", input: #"{"n": \#(number)}"#).status == 0)
        }
        #expect(try cli("checkpoint").status == 0)
    }

    @Test(.enabled(if: SyscallTracer.isAvailable, "needs strace (scripts/install-deps.sh --tests)"))
    func aScanThatCannotListACollectionCommitsNothing() throws {
        let cli = CLI()
        try store(cli)
        #expect(try cli("put", "users/u1/notes/n1", input: #"{"text": "later"}"#).status == 0)
        let head = try cli.git("u1", "rev-parse", "HEAD").stdout

        // Every opening of the books' folder fails, as for a folder the process may not read.
        let books = cli.home + "/u1/users/u1/books"
        let scanned = try failing("openat", on: books, cli, ["checkpoint", "--scan"])
        #expect(scanned.status == 1, "\(scanned.stdout)")
        let lines = scanned.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("cannot list \(books): Permission denied"), "\(scanned.stderr)")
        #expect(try cli.git("u1", "rev-parse", "HEAD").stdout == head)

        // Listed again, the scan commits the note and keeps the books.
        #expect(try cli("checkpoint", "--scan").status == 0)
        let after = try cli.git("u1", "ls-tree", "-r", "--name-only", "HEAD").stdout
        for number in 1...3 { #expect(after.contains("users/u1/books/b\(number).json"), "\(after)") }
        #expect(after.contains("users/u1/notes/n1.json"), "\(after)")
        #expect(try cli.git("u1", "status", "--porcelain").stdout.isEmpty)
    }

    @Test(.enabled(if: SyscallTracer.isAvailable, "needs strace (scripts/install-deps.sh --tests)"))
    func aFolderTheLastCheckpointHasNothingInIsPassedOver() throws {
        let cli = CLI()
        try store(cli)
        let drafts = cli.home + "/u1/users/u1/drafts"
        try FileManager.default.createDirectory(atPath: drafts, withIntermediateDirectories: true)
        #expect(try cli("put", "users/u1/notes/n1", input: #"{"text": "later"}"#).status == 0)
        let scanned = try failing("openat", on: drafts, cli, ["checkpoint", "--scan"])
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(try cli.git("u1", "ls-tree", "-r", "--name-only", "HEAD").stdout.contains("users/u1/notes/n1.json"))
    }

    @Test(.enabled(if: SyscallTracer.isAvailable, "needs strace (scripts/install-deps.sh --tests)"))
    func aPendingDocumentThatCannotBeLookedAtIsNotCommittedAsDeleted() throws {
        let cli = CLI()
        try store(cli)
        #expect(try cli("put", "users/u1/books/b1", input: #"{"n": 10}"#).status == 0)
        let head = try cli.git("u1", "rev-parse", "HEAD").stdout
        // Its folder may be listed but not entered: looking at the file fails.
        let book = cli.home + "/u1/users/u1/books/b1.json"
        let checkpoint = try failing("newfstatat", on: book, cli, ["checkpoint"])
        #expect(checkpoint.status == 1, "\(checkpoint.stdout)")
        #expect(
            checkpoint.stderr.split(separator: "\n").count == 1 && checkpoint.stderr.contains("Permission denied"), "\(checkpoint.stderr)")
        #expect(try cli.git("u1", "rev-parse", "HEAD").stdout == head)
        #expect(try cli.git("u1", "ls-tree", "-r", "--name-only", "HEAD").stdout.contains("users/u1/books/b1.json"))

        #expect(try cli("checkpoint").status == 0)
        #expect(try cli.git("u1", "show", "HEAD:users/u1/books/b1.json").stdout.contains("10"))
    }
}
