import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Git
import Testing

/// What a program gets from an error: a code it can match, a remedy it words itself, and the
/// chain of causes down to libgit2.
@Suite(.historiesVerified) struct CairnErrorTests {
    static let codes: [CairnError.Code] = [
        .invalidInput, .notFound, .alreadyExists, .busy, .corrupt, .io, .network, .authentication, .refused,
    ]

    @Test func everyCodeIsItsOwn() {
        #expect(Set(Self.codes).count == Self.codes.count)
        #expect(Set(Self.codes.map(\.description)).count == Self.codes.count)
        for (index, code) in Self.codes.enumerated() {
            // Matching by pattern, as a program's switch (with its `default`) does.
            let matched = Self.codes.indices.filter { other in
                switch code {
                case Self.codes[other]: true
                default: false
                }
            }
            #expect(matched == [index], "\(code)")
        }
    }

    @Test func theDetailedDescriptionShowsTheChainOfCauses() {
        let git = GitError(
            code: .notFound, message: "object not found - no match for id (1234567)", function: "git_odb_read",
            location: GitError.SourceLocation(file: "Git/Repository+Objects.swift", line: 40))
        let damaged = CairnError(.corrupt, "cannot read users/u1/books/b1: corrupt store (object not found)", remedy: .repair, cause: git)
        let error = CairnError(.io, "cannot repair the store of u1", cause: damaged)
        let lines = error.detailedDescription().split(separator: "\n").map(String.init)
        let expected = [
            "CairnError: I/O error",
            "├─ Message: cannot repair the store of u1",
            "├─ Cause:",
            "│  └─ CairnError: corrupt",
            "│     ├─ Message: cannot read users/u1/books/b1: corrupt store (object not found)",
            "│     ├─ Remedy: repair the store from its remote, keeping the documents not yet pushed",
            "│     ├─ Cause:",
            "│     │  └─ GitError: \(GitError.Code.notFound)",
            "│     │     ├─ Message: object not found - no match for id (1234567)",
            "│     │     ├─ Function: git_odb_read",
            "│     │     └─ Location: Git/Repository+Objects.swift:40",
        ]
        #expect(Array(lines.prefix(expected.count)) == expected)
        // Each error says where it was raised: here, the inner one first.
        #expect(lines.count == expected.count + 2)
        #expect(
            lines[expected.count].hasPrefix(
                "│     └─ Location: theDetailedDescriptionShowsTheChainOfCauses() (CairnCoreTests/CairnErrorTests.swift:"))
        #expect(
            lines[expected.count + 1].hasPrefix(
                "└─ Location: theDetailedDescriptionShowsTheChainOfCauses() (CairnCoreTests/CairnErrorTests.swift:"))
    }

    @Test func theLibrarySpeaksOfNoCommand() throws {
        let remedy = CairnError.Remedy.restoreDocuments([try DocumentPath("users/u1/examAttempts/a1")])
        let error = CairnError(
            .refused, "the remote refused the push: a1 breaks its schema; the store is back on its last checkpoint", remedy: remedy)
        #expect(error.message == "the remote refused the push: a1 breaks its schema; the store is back on its last checkpoint")
        #expect(
            error.description == error.message
                + " — take that document back to the remote's version, keeping every other unpushed change, then sync again")
        #expect(!error.description.contains("cairn "))
    }

    @Test func aMissingStoreNamesItsRemedy() throws {
        let folder = TemporaryFolder()
        let home = Home(root: folder.path)
        #expect {
            try home.openStore("u1")
        } throws: { error in
            guard let error = error as? CairnError else { return false }
            return error.code == .notFound && error.remedy == .createStore(uid: "u1") && !error.message.contains("cairn init")
        }
    }
}
