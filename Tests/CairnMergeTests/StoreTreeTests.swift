import CairnMerge
import Testing

/// What a fetched tree may hold: the catalogue of crafted paths a hostile remote could send.
@Suite struct StoreTreeTests {
    func refusal(_ path: String, mode: UInt32 = 0o100644, uid: String = "u1") -> StoreTreeRefusal? {
        StoreTree.refusal(
            of: path.split(separator: "/", omittingEmptySubsequences: false).map { Array($0.utf8) },
            mode: mode, uid: uid)
    }

    @Test func theStoreFilesAndTheUsersDocumentsAreAccepted() {
        for path in [
            ".gitattributes", ".cairn/store.json", ".cairn/schema/book.schema.json", "users/u1.json",
            "users/u1/books/b1.json", "users/u1/profiles/p1/habits/h1.json",
        ] {
            #expect(refusal(path) == nil, "\(path)")
        }
    }

    @Test func craftedPathsAreRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("users/u1/../u2/books/b1.json", "'..' is not a name"),
            ("users/u1/./books/b1.json", "'.' is not a name"),
            (".git/config", "git's own folder"),
            ("users/u1/.GIT/hooks/x.json", "git's own folder"),
            ("users/u1/GIT~1/x.json", "git's own folder"),
            ("users/u1/.git./x.json", "git's own folder"),
            ("users/u1/.git /x.json", "git's own folder"),
            ("users/u1/books\\b1.json", "backslash"),
            ("users/u1/git~1 /x.json", "git's own folder"),
            ("users/u1//b1.json", "empty name"),
            ("users/u2/books/b1.json", "another user"),
            ("users/u2.json", "another user"),
            ("README.md", "outside the store's folders"),
            ("users/u1/books/b1.txt", "not a document's file"),
            ("users/u1/books.json", "not a document's file"),
        ]
        for (path, reason) in cases {
            let found = refusal(path)?.description
            #expect(found?.contains(reason) == true, "\(path): \(found ?? "accepted")")
        }
    }

    /// A name holding '/' (git never writes one, a crafted tree can) would reach other folders.
    @Test func aNameWithASlashIsRefused() {
        let found = StoreTree.refusal(of: [Array(".cairn".utf8), Array("x/../../.git/config".utf8)], mode: 0o100644, uid: "u1")
        #expect(found == .badName(path: ".cairn/x/../../.git/config", problem: .slash))
        #expect(
            StoreTree.refusal(
                of: [Array("users".utf8), Array("u1".utf8), Array("books/b1.json".utf8)],
                mode: 0o100644, uid: "u1")?.description.contains("slash") == true)
    }

    /// What a device may write, another device accepts: the rules on `.git`'s names are one.
    @Test func theIDsADeviceWritesArriveAccepted() {
        for path in ["users/u1/git~x/d.json", "users/u1/books/git~.json", "users/u1/books/git~1a.json"] {
            #expect(refusal(path) == nil, "\(path)")
        }
    }

    @Test func onlyPlainFilesAreAccepted() {
        #expect(refusal("users/u1/books/b1.json", mode: 0o120000)?.description.contains("symbolic link") == true)
        #expect(refusal("users/u1/books/b1.json", mode: 0o160000)?.description.contains("submodule") == true)
        #expect(refusal("users/u1/books/b1.json", mode: 0o100755)?.description.contains("executable") == true)
    }

    @Test func namesThatAreNotUTF8AreRefused() {
        let found = StoreTree.refusal(
            of: [Array("users".utf8), Array("u1".utf8), [0xFF, 0xFE], Array("b.json".utf8)],
            mode: 0o100644, uid: "u1")
        #expect(found == .badName(path: "\"users/u1/\u{FFFD}\u{FFFD}/b.json\"", problem: .notUTF8))
        #expect(found?.description.contains("not UTF-8") == true)
    }

    /// Each reason, as the refusal of a fetch or a push shows it: the path, what is wrong, and
    /// what a store holds instead.
    @Test func eachReasonReadsAsItIsShown() {
        let cases: [(String, UInt32, StoreTreeRefusal, String)] = [
            (
                "users/u1/../b.json", 0o100644, .badName(path: "users/u1/../b.json", problem: .dotName("..")),
                "users/u1/../b.json: '..' is not a name"
            ),
            (
                "users/u1//b.json", 0o100644, .badName(path: "users/u1//b.json", problem: .empty),
                "users/u1//b.json: an empty name"
            ),
            (
                "users/u1/a\\b.json", 0o100644, .badName(path: "users/u1/a\\b.json", problem: .backslash),
                "users/u1/a\\b.json: a name with a backslash"
            ),
            (
                ".GIT/config", 0o100644, .badName(path: ".GIT/config", problem: .gitFolder(".GIT")),
                ".GIT/config: '.GIT' could stand for git's own folder"
            ),
            (
                "users/u1/b.json", 0o100755, .executable(path: "users/u1/b.json"),
                "users/u1/b.json is executable; a store holds plain files only"
            ),
            (
                "users/u1/b.json", 0o120000, .symbolicLink(path: "users/u1/b.json"),
                "users/u1/b.json is a symbolic link; a store holds plain files only"
            ),
            (
                "users/u1/b.json", 0o160000, .submodule(path: "users/u1/b.json"),
                "users/u1/b.json is a submodule; a store holds plain files only"
            ),
            (
                "users/u1/b.json", 0o100664, .otherMode(path: "users/u1/b.json", mode: 0o100664),
                "users/u1/b.json has file mode 100664; a store holds plain files only"
            ),
            (
                "notes.txt", 0o100644, .outsideTheStore(path: "notes.txt", uid: "u1"),
                "notes.txt is outside the store's folders (users/u1/, .cairn/)"
            ),
            (
                "users/u2/b/b1.json", 0o100644, .anotherUser(path: "users/u2/b/b1.json", uid: "u1"),
                "users/u2/b/b1.json belongs to another user than u1"
            ),
            (
                "users/u1/b.txt", 0o100644, .notADocument(path: "users/u1/b.txt", uid: "u1"),
                "users/u1/b.txt is not a document's file (users/u1/…/ID.json with valid IDs)"
            ),
        ]
        for (path, mode, expected, text) in cases {
            let found = refusal(path, mode: mode)
            #expect(found == expected, "\(path)")
            #expect(found?.description == text, "\(path)")
        }
    }
}
