import CairnMerge
import Testing

/// What a pushed tree of a content item may hold: the item's documents and Cairn's own
/// files; anything else — another item, another collection, a file that is not a document's,
/// a crafted name, a file that is not plain — is refused with the reason.
@Suite struct ContentTreeTests {
    func refusal(_ path: String, mode: UInt32 = 0o100644) -> String? {
        ContentTree.refusal(
            of: path.split(separator: "/", omittingEmptySubsequences: false).map { Array($0.utf8) },
            mode: mode, collection: "assessments", item: "a1")
    }

    @Test func theItemsDocumentsAndCairnsFilesAreAccepted() {
        for path in [
            "assessments/a1.json", "assessments/a1/questions/q-001.json", "assessments/a1/questions/q-001/hints/h1.json",
            ".gitattributes", ".cairn/notes.json",
        ] {
            #expect(refusal(path) == nil, "\(path)")
        }
    }

    @Test func everythingElseIsRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("assessments/a2.json", "assessments/a2.json is outside the item's folders (assessments/a1.json, assessments/a1/, .cairn/)"),
            ("assessments/a2/questions/q1.json", "is outside the item's folders"),
            ("books/a1.json", "is outside the item's folders"),
            ("users/u1.json", "is outside the item's folders"),
            ("README.md", "is outside the item's folders"),
            ("assessments/a1/questions.json", "is not a document's file (assessments/a1/…/ID.json with valid IDs)"),
            ("assessments/a1/questions/q1.txt", "is not a document's file"),
            ("assessments/a1/../a2.json", "'..' is not a name"),
            ("assessments/a1/.git/config.json", "git's own folder"),
        ]
        for (path, reason) in cases {
            let found = refusal(path)
            #expect(found?.contains(reason) == true, "\(path): \(found ?? "accepted")")
        }
        #expect(refusal("assessments/a1.json", mode: 0o100755) == "assessments/a1.json is executable; a store holds plain files only")
        #expect(refusal("assessments/a1.json", mode: 0o120000)?.contains("symbolic link") == true)
    }
}
