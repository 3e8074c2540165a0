import Foundation

/// Where the official conformance suites are: `../shared/testsuites` beside the package,
/// or `$CAIRN_TESTSUITES`.
enum TestSuites {
    static var root: URL {
        if let path = ProcessInfo.processInfo.environment["CAIRN_TESTSUITES"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // CairnMergeTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // the package
            .deletingLastPathComponent()
            .appendingPathComponent("shared/testsuites")
    }

    /// The files of JSONTestSuite's `test_parsing` folder, sorted.
    static func jsonParsingCases() throws -> [URL] {
        let folder = root.appendingPathComponent("json-test-suite/test_parsing")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
