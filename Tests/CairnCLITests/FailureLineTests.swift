import CairnCommandLine
import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import cairn

/// What the tool prints of a failure: one line by default, the way out worded as its own
/// commands, and at `CAIRN_LOG=debug` the chain of causes first.
@Suite(.historiesVerified) struct FailureLineTests {
    @Test func debugLoggingPrintsTheChainOfCausesBeforeTheLine() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let plain = try cli("get", "users/u1/books/b1", "--at", "no-such-revision")
        #expect(plain.status == 1)
        #expect(plain.stderr.hasPrefix("cairn: unknown revision \"no-such-revision\": "))
        #expect(plain.stderr.hasSuffix("; see cairn log for the checkpoints\n"))
        #expect(plain.stderr.split(separator: "\n").count == 1)

        let debug = try cli("get", "users/u1/books/b1", "--at", "no-such-revision", environment: ["CAIRN_LOG": "debug"])
        #expect(debug.status == 1)
        #expect(debug.stderr.hasSuffix(plain.stderr), "the line stays the last: \(debug.stderr)")
        let chain = try #require(debug.stderr.range(of: "CairnError: not found\n"))
        #expect(chain.upperBound <= debug.stderr.range(of: plain.stderr)!.lowerBound)
        #expect(debug.stderr.contains("├─ Remedy: the store's history lists the checkpoints\n"))
        #expect(debug.stderr.contains("│  └─ GitError: "))
        #expect(debug.stderr.contains("├─ Function: git_"))
        #expect(debug.stderr.contains("└─ Location: "))
    }

    @Test func remediesAreWordedAsTheToolsCommands() throws {
        let error = CairnError(
            .refused, "the store is back on its last checkpoint",
            remedy: .restoreDocuments([try DocumentPath("users/u1/examAttempts/a1"), try DocumentPath("users/u1/notes/my note")]))
        #expect(
            error.commandLineMessage
                == "the store is back on its last checkpoint — to take those documents back to the remote's version, keeping every other unpushed change, run: cairn restore users/u1/examAttempts/a1 'users/u1/notes/my note', then sync again"
        )
        #expect(
            CairnError(.notFound, "there is no store for user u1 at /h/u1", remedy: .createStore(uid: "u1")).commandLineMessage
                == "there is no store for user u1 at /h/u1; create it with: cairn init u1")
        #expect(
            CairnError(.invalidInput, "name at least one user", remedy: .nameUsers).commandLineMessage
                == "name at least one user: cairn server init FOLDER UID…")
        #expect(CairnError(.io, "write /h/u1/x: Input/output error").commandLineMessage == "write /h/u1/x: Input/output error")
    }

    /// The ways out of assets and downloaded content: the library's words name no command,
    /// the tool's name its own, with the names a shell must have quoted.
    @Test func theWaysOutOfAssetsAndContentNameCommandsOnlyInTheTool() throws {
        let note = try DocumentPath("users/u1/notes/my note")
        let remedies: [CairnError.Remedy] = [
            .downloadContent(collection: "assessments", item: "a1"), .raiseItemSizeLimit, .syncOrRaiseContentLimits,
            .addAsset(path: note, field: "sketch"), .removeAsset(path: nil, field: nil), .putWithAsset(path: note, field: "sketch"),
            .downloadContentAgain(collection: "assessments", item: "a1"), .checkContentName(consequence: "nothing was removed"),
            .discardAnswers(collection: "assessments", item: "a1"), .serveContentCollection(consequence: "nothing was created"),
            .serveContentCollection(consequence: nil),
        ]
        for remedy in remedies {
            let error = CairnError(.notFound, "it failed", remedy: remedy)
            #expect(!error.description.contains("cairn "), "\(error.description)")
            #expect(
                error.commandLineMessage.hasPrefix("it failed; ") && error.commandLineMessage.contains("cairn "),
                "\(error.commandLineMessage)")
        }
        #expect(
            CairnError(.invalidInput, "the asset is missing", remedy: .addAsset(path: note, field: "sketch")).commandLineMessage
                == "the asset is missing; add the file with cairn asset add 'users/u1/notes/my note' sketch FILE — nothing was written")
        #expect(
            CairnError(.notFound, "it is gone", remedy: .removeAsset(path: nil, field: nil)).commandLineMessage
                == "it is gone; clear it with cairn asset rm PATH FIELD — nothing was pushed")
    }

    /// The libraries' messages (CairnCore, CairnServer) name no command of the tool: a way
    /// out that takes one is a ``CairnError/Remedy``, which the tool words. Every string
    /// literal of their sources is read for `cairn ` followed by one of the tool's commands.
    @Test func theLibrariesNameNoCommandOfTheTool() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let commands = try Regex(
            #"cairn (init|sync|clone|server|content|asset|conflicts|hook|put|get|use|remote|repair|checkpoint|log|migrate|restore|verify)\b"#
        )
        // Written into a store's .gitattributes as it is: a store made before keeps the line.
        let kept = ["Assets: Git LFS pointers, derived from the documents (cairn asset)."]
        var found: [String] = []
        var read = 0
        for module in ["CairnCore", "CairnServer"] {
            let folder = sources.appendingPathComponent(module).path
            let files = try #require(FileManager.default.enumerator(atPath: folder)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                read += 1
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//"), code.contains("\""), code.contains(commands),
                        !kept.contains(where: { code.contains($0) })
                    else { continue }
                    found.append("\(module)/\(file):\(number + 1): \(code)")
                }
            }
        }
        #expect(read > 100, "the sources were found: \(read) files")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func pathsAreQuotedOnlyWhereAShellNeedsIt() {
        #expect(CairnError.Remedy.shellWord("users/u1/profiles/+447700900123") == "users/u1/profiles/+447700900123")
        #expect(CairnError.Remedy.shellWord("users/u1/notes/my note") == "'users/u1/notes/my note'")
        #expect(CairnError.Remedy.shellWord("users/u1/notes/it's") == "'users/u1/notes/it'\\''s'")
        #expect(CairnError.Remedy.shellWord("users/u1/notes/$HOME") == "'users/u1/notes/$HOME'")
        #expect(CairnError.Remedy.shellWord("users/u1/notes/café") == "'users/u1/notes/café'")
    }
}
