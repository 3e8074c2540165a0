import CairnMerge
import CairnSchemaSets
import CairnTesting
import Foundation
import XCTest

/// The same vocabulary from XCTest, as an app's XCTest target uses it (CairnMerge.docc,
/// MergeScenarioTests, "From Swift tests"): a story's failure is a thrown error XCTest reports with its description.
final class XCTestStoryTests: XCTestCase {
    func testTwoDevicesConvergeOnTheLatestMark() throws {
        let set = try XCTUnwrap(SchemaSets.named("life-in-uk"))
        let story = try Story(schemaSet: set, devices: ["phone", "laptop"])
        let book = try JSONParser().parse(#"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10}}}"#)
        try story.run(.put(device: "phone", path: "users/u1/books/b1", value: book))
        try story.run(.sync(device: "phone"))
        try story.run(.sync(device: "laptop"))
        try story.expect(.contains(device: "laptop", path: "users/u1/books/b1", value: try JSONParser().parse(#"{"completedCount":1}"#)))
        try story.expect(.sameTree(devices: [], remote: true))
        // An expectation that does not hold throws, naming the step and the difference.
        XCTAssertThrowsError(
            try story.expect(
                .contains(
                    device: "laptop", path: "users/u1/books/b1",
                    value: try JSONParser().parse(#"{"completedCount":2}"#)))
        ) { error in
            XCTAssertTrue("\(error)".contains("/completedCount: expected 2, found 1"), "\(error)")
        }
    }

    func testTheExampleScenarioFilesRun() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/life-in-uk/scenarios").path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            for entry in Scenario.read(file: folder + "/" + file) {
                XCTAssertNoThrow(try entry.scenario.get().run(), "\(file): \(entry.name)")
            }
        }
    }
}
