import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The library quickstart of the getting-started article (`CairnCore.docc`, GettingStarted) is
/// `examples/quickstart/Quickstart.swift`, word for word; it runs from any folder (its schema set
/// comes from the package's resources), and says nothing on stderr.
@Suite(.historiesVerified) struct QuickstartTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theGettingStartedArticleShowsTheExampleAsItIs() throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/CairnCore/CairnCore.docc/GettingStarted.md"), encoding: .utf8)
        let example = try String(contentsOf: Self.root.appendingPathComponent("examples/quickstart/Quickstart.swift"), encoding: .utf8)
        let section = try #require(article.range(of: "### The quickstart"))
        let start = try #require(article.range(of: "```swift\n", range: section.upperBound..<article.endIndex))
        let end = try #require(article.range(of: "```\n", range: start.upperBound..<article.endIndex))
        #expect(String(article[start.upperBound..<end.lowerBound]) == example)
    }

    @Test func theExampleRunsFromAFolderOutsideTheCheckout() throws {
        let elsewhere = TemporaryFolder("cairn-quickstart-cwd")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CLI.executable).deletingLastPathComponent().appendingPathComponent("quickstart")
        process.currentDirectoryURL = URL(fileURLWithPath: elsewhere.path)
        let output = Pipe()
        process.standardOutput = output
        let errors = elsewhere.path + "/stderr"
        #expect(FileManager.default.createFile(atPath: errors, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("changed: [\"users/u1/examAttempts/attempt-1\"]"))
        #expect(text.contains("pushed 2 checkpoints"))
        // An app that configures no logging hears nothing from a store that works: the routine
        // steps (checkpoint, fetch, merge, push) log at debug, below swift-log's default level.
        let logged = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(logged.isEmpty, "\(logged)")
    }
}
