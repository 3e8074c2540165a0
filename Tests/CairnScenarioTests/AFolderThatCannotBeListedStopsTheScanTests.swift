import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A checkpoint that scans the working tree (`--scan`, or after another git tool changed the
/// store) lists every folder. A folder it cannot list (its permissions, an I/O error, a
/// process out of descriptors) is not an empty one: the checkpoint stops with one line and
/// commits nothing, instead of comparing the last checkpoint with a tree missing a folder.
@Suite struct AFolderThatCannotBeListedStopsTheScanTests {
    @Test(.enabled(if: SyscallTracer.isAvailable, "needs strace (scripts/install-deps.sh)"))
    func aScanThatCannotListACollectionCommitsNothing() throws {
        let cli = CLI()
        #expect(try cli("init", "u1").status == 0)
        for number in 1...3 {
            #expect(try cli("put", "users/u1/books/b\(number)", input: #"{"n": \#(number)}"#).status == 0)
        }
        #expect(try cli("checkpoint").status == 0)
        #expect(try cli("put", "users/u1/notes/n1", input: #"{"text": "later"}"#).status == 0)
        let head = try cli.git("u1", "rev-parse", "HEAD").stdout

        // Every opening of the books' folder fails, as for a folder the process may not read.
        let books = cli.home + "/u1/users/u1/books"
        let trace = cli.scratch("trace")
        let scanned = try runProcess(SyscallTracer.executable, [
            "-f", "-qq", "-o", trace, "-P", books, "-e", "trace=openat,open",
            "-e", "inject=openat,open:error=EACCES", CLI.executable, "--home", cli.home, "checkpoint", "--scan",
        ])
        try #require(try String(contentsOfFile: trace, encoding: .utf8).contains("(INJECTED)"), "the folder was listed: the test proves nothing")
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
}
