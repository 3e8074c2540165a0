import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The README's library quickstart is `examples/quickstart/Quickstart.swift`, word for word,
/// and it runs from any folder: its schema set comes from the package's resources.
@Suite(.historiesVerified) struct QuickstartTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReadmeShowsTheExampleAsItIs() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(contentsOf: Self.root.appendingPathComponent("examples/quickstart/Quickstart.swift"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The library"))
        let start = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == example)
    }

    @Test func theExampleRunsFromAFolderOutsideTheCheckout() throws {
        let elsewhere = TemporaryFolder("cairn-quickstart-cwd")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CLI.executable).deletingLastPathComponent().appendingPathComponent("quickstart")
        process.currentDirectoryURL = URL(fileURLWithPath: elsewhere.path)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("changed: [\"users/u1/examAttempts/attempt-1\"]"))
        #expect(text.contains("pushed 2 checkpoints"))
    }
}
