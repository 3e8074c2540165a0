import CairnMerge
import CairnSchemaSets
import CairnTesting
import Foundation
import Testing

// The example of the merge scenario tests article (`CairnMerge.docc`, MergeScenarioTests, "From
// Swift tests"), as an app's test target writes it: the test below it checks that the article
// still shows this very function.

@Test func bothDevicesKeepTheLatestMark() throws {
    let set = try #require(SchemaSets.named("life-in-uk"))
    let story = try Story(schemaSet: set, devices: ["phone", "laptop"])
    let book = try JSONParser().parse(#"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10}}}"#)
    try story.run(.put(device: "phone", path: "users/u1/books/b1", value: book))
    try story.run(.sync(device: "phone"))
    try story.run(.sync(device: "laptop"))
    try story.expect(.contains(device: "laptop", path: "users/u1/books/b1", value: try JSONParser().parse(#"{"completedCount":1}"#)))
    try story.expect(.sameTree(devices: [], remote: true))
    try story.expect(.verified)
    #expect(story.lastConflicts(on: "laptop") == [])
}

/// The article's Swift example is the function above, imports and all, so it compiles and runs.
@Test func theScenarioTestsArticleShowsTheExampleThatRuns() throws {
    let here = URL(fileURLWithPath: #filePath)
    let article = try String(
        contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CairnMerge/CairnMerge.docc/MergeScenarioTests.md"),
        encoding: .utf8)
    let section = try #require(article.components(separatedBy: "### From Swift tests").dropFirst().first)
    let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
    let source = try String(contentsOf: here, encoding: .utf8)
    let imports = block.split(separator: "\n").filter { $0.hasPrefix("import ") }
    #expect(imports.allSatisfy { source.contains($0 + "\n") }, "\(imports)")
    let function = try #require(block.components(separatedBy: "@Test func").dropFirst().first)
    #expect(source.contains("@Test func" + function), "the article's example differs from this file's")
}
