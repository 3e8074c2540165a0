import CairnTestSupport
import Foundation
import Testing

extension CLI {
    /// The store of u1 with one checkpointed document (`books/b1`) and one pending write
    /// (`books/b2`): what a refusal must leave as it was.
    package func makeStoreToRefuseInto() throws {
        try self("init", "u1")
        try self("put", "users/u1/books/b1", input: #"{"keep":true}"#)
        try self("checkpoint")
        try self("put", "users/u1/books/b2", input: #"{"pending":true}"#)
    }

    /// Runs a command that must be refused, and checks the refusal's shape: exit status 1,
    /// nothing on stdout, one line on stderr that says `phrase`, and the store of `uid` as it
    /// was — its files, its HEAD and what `git status` says.
    package func expectRefused(
        _ arguments: [String], input: String? = nil, saying phrase: String, uid: String = "u1",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try snapshot(uid)
        let status = try git(uid, "status", "--porcelain").stdout
        let result = try runProcess(Self.executable, ["--home", home] + arguments, input: input)
        #expect(result.status == 1, "exit status of \(arguments)", sourceLocation: sourceLocation)
        #expect(result.stdout == "", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("cairn: "), sourceLocation: sourceLocation)
        #expect(result.stderr.contains(phrase), "\(result.stderr) says \(phrase)", sourceLocation: sourceLocation)
        #expect(try snapshot(uid) == before, "nothing changed by \(arguments)", sourceLocation: sourceLocation)
        #expect(
            try git(uid, "status", "--porcelain").stdout == status, "git status after \(arguments)",
            sourceLocation: sourceLocation)
    }
}
