import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The catalogue of bad input, hostile or mistaken, in one place: documents, IDs, paths,
/// commands and fetched trees that must be refused with one line that names what was wrong
/// and what to do, changing nothing — the store's files, its HEAD and `git status` stay as
/// they were.
///
/// Documents and IDs go through `cairn put`; fetched trees are commits made with plain git's
/// plumbing in a bare remote, so they hold what git's porcelain would never write, and
/// `cairn sync` must refuse the whole sync, naming the commit and the file.
@Suite(.historiesVerified) struct BadInputCatalogueTests {
    let cli = CLI()

    init() throws {
        try cli.makeStoreToRefuseInto()
    }

    /// Writes `bytes` to a scratch file and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = cli.scratch(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: Documents

    @Test func malformedJSON() throws {
        try cli.expectRefused(["put", "users/u1/books/b1"], input: #"{"keep": tru}"#, saying: "invalid JSON at line 1")
        try cli.expectRefused(["put", "users/u1/books/b1"], input: "[1]", saying: "a document is a JSON object")
        try cli.expectRefused(["put", "users/u1/books/b1"], input: "", saying: "unexpected end of input")
    }

    @Test func invalidUTF8() throws {
        let path = try file("latin1.json", Array(#"{"name":"caf"#.utf8) + [0xE9] + Array(#""}"#.utf8))
        try cli.expectRefused(["put", "users/u1/books/b1", path], saying: "string is not valid UTF-8")
    }

    @Test func duplicateKeys() throws {
        try cli.expectRefused(["put", "users/u1/books/b1"], input: #"{"score":1,"score":2}"#, saying: #"duplicate key "score""#)
        // Two spellings of one key (NFC and NFD) are one key.
        try cli.expectRefused(["put", "users/u1/books/b1"], input: "{\"\u{E9}\":1,\"e\u{301}\":2}", saying: "duplicate key")
    }

    @Test func notANumber() throws {
        try cli.expectRefused(["put", "users/u1/books/b1"], input: #"{"score": NaN}"#, saying: "NaN and Infinity are not JSON numbers")
        try cli.expectRefused(
            ["put", "users/u1/books/b1"], input: #"{"score": -Infinity}"#, saying: "NaN and Infinity are not JSON numbers")
    }

    @Test func numbersOutOfRange() throws {
        try cli.expectRefused(["put", "users/u1/books/b1"], input: #"{"score": 1e400}"#, saying: "number 1e400 is too large for a double")
        try cli.expectRefused(
            ["put", "users/u1/books/b1"], input: #"{"score": 9223372036854775808}"#,
            saying: "outside the 64-bit range; store it as a string")
    }

    @Test func nestingTenThousandDeep() throws {
        let deep = "{\"a\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        try cli.expectRefused(["put", "users/u1/books/b1"], input: deep, saying: "nesting deeper than 128 levels")
    }

    @Test func fiftyMegabytes() throws {
        var bytes = Data(#"{"a":""#.utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 50 << 20))
        bytes.append(Data(#""}"#.utf8))
        let path = cli.scratch("large.json")
        try bytes.write(to: URL(fileURLWithPath: path))
        try cli.expectRefused(["put", "users/u1/books/b1", path], saying: "larger than 1048576 bytes, the limit of a document; split it")
    }

    @Test func byteOrderMark() throws {
        let path = try file("bom.json", [0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        try cli.expectRefused(["put", "users/u1/books/b1", path], saying: "byte-order mark; save the file as UTF-8 without BOM")
    }

    // MARK: IDs

    @Test func dotNames() throws {
        try cli.expectRefused(["put", "users/u1/books/..", "-"], input: "{}", saying: #"invalid ID "..""#)
        try cli.expectRefused(["put", "users/u1/../u2/books/b1", "-"], input: "{}", saying: "'.' and '..' are not IDs")
    }

    @Test func namesOfGitsFolder() throws {
        try cli.expectRefused(["put", "users/u1/books/.git"], input: "{}", saying: "may not start with '.'; choose another ID")
        try cli.expectRefused(["put", "users/u1/.git/b1"], input: "{}", saying: "may not start with '.'")
        try cli.expectRefused(
            ["put", "users/u1/books/GIT~1"], input: "{}", saying: "how Windows names the '.git' folder; choose another ID")
        try cli.expectRefused(["put", "users/u1/books/git~1 "], input: "{}", saying: "how Windows names the '.git' folder")
        try cli.expectRefused(["put", "users/u1/books/a\\b"], input: "{}", saying: "may not contain '\\'")
    }

    @Test func reservedIDsAndFileNames() throws {
        try cli.expectRefused(["put", "users/u1/books/__x__"], input: "{}", saying: "reserved")
        try cli.expectRefused(["put", "users/u1/books/b1.json"], input: "{}", saying: "'.json'")
    }

    /// NUL cannot travel in a command's arguments: the library refuses it, and through `cairn`
    /// every other control character is refused by the same rule.
    @Test func nulAndControlCharacters() throws {
        #expect(
            throws: PathError(
                rule: .controlCharacter, path: "users/u1/books/a\u{0}b", id: "a\u{0}b",
                explanation: "an ID may not contain NUL or other control characters")
        ) {
            try DocumentPath("users/u1/books/a\u{0}b")
        }
        try cli.expectRefused(["put", "users/u1/books/a\u{1}b"], input: "{}", saying: "may not contain NUL or other control characters")
        try cli.expectRefused(["put", "users/u1/books/a\u{85}b"], input: "{}", saying: "control characters")
    }

    @Test func normalizationForms() throws {
        #expect(try cli("put", "users/u1/books/caf\u{E9}", input: "{}").status == 0)
        try cli.expectRefused(
            ["put", "users/u1/books/cafe\u{301}"], input: "{}",
            saying: "already exists in the same collection and differs only in case or accents")
        #expect(try cli("ls", "users/u1/books").stdout.contains("caf\u{E9}"))
    }

    @Test func caseOnly() throws {
        #expect(try cli("put", "users/u1/books/Doc", input: "{}").status == 0)
        try cli.expectRefused(["put", "users/u1/books/doc"], input: "{}", saying: #"use "Doc" or another ID"#)
    }

    // MARK: Paths and commands

    @Test func pathsThatNameNoDocumentOfThisUser() throws {
        try cli.expectRefused(["put", "users/u1/books"], input: "{}", saying: "names a collection")
        try cli.expectRefused(["put", "users//u1/books/b3"], input: "{}", saying: "empty segment")
        try cli.expectRefused(["put", "users/u2/books/b1"], input: "{}", saying: "outside the store of user u1")
        try cli.expectRefused(["ls", "users/u1"], saying: "names a document")
    }

    @Test func whatIsNotThere() throws {
        try cli.expectRefused(["get", "users/u1/books/none"], saying: "no document at users/u1/books/none")
        try cli.expectRefused(["get", "users/u1/books/b1", "--at", "HEAD~9"], saying: "unknown revision")
        try cli.expectRefused(["rm", "users/u1/books/none"], saying: "no document")
        try cli.expectRefused(["put", "users/u1/books/b3", "/nonexistent/file.json"], saying: "cannot read /nonexistent/file.json")
    }

    @Test func usersAndStores() throws {
        try cli.expectRefused(["init", "u1"], saying: "already exists")
        try cli.expectRefused(["init", "bad/uid"], saying: "invalid user id")
        try cli.expectRefused(["use", "nobody"], saying: "no store for user nobody")
        try cli.expectRefused(["--user", "nobody", "ls", "users/nobody/books"], saying: "no store for user nobody")
    }

    @Test func aHomeWithoutUsersSaysHowToStart() throws {
        let empty = CLI()
        let result = try empty("ls", "users/u1/books")
        #expect(result.status == 1)
        #expect(
            result.stderr == "cairn: no active user in \(empty.home); create one with: cairn init UID (or pick one with: cairn use UID)\n")
    }

    @Test func usageErrorsExitWithTheUsageStatus() throws {
        let result = try cli("put")
        #expect(result.status == 64)
        #expect(result.stderr.contains("Missing expected argument"))
    }

    // MARK: Fetched trees

    @Test func craftedFetchedTreesRefuseTheWholeSync() throws {
        let remote = CraftedRemote(folder: cli.scratch("remote.git"))
        try remote.create()
        #expect(try cli("remote", "set", remote.folder).status == 0)
        // Synced, so nothing is pending: a refused sync must leave HEAD where it is.
        #expect(try cli("sync").status == 0)
        let document = try remote.blob("{}\n")
        let cases: [(names: [String], mode: String, id: String, says: String)] = [
            (["users", "u1", "..", "x.json"], "100644", document, "users/u1/../x.json: '..' is not a name"),
            (["users", "u1", "books", "..", "b9.json"], "100644", document, "users/u1/books/../b9.json: '..' is not a name"),
            ([".GIT", "config"], "100644", document, ".GIT/config: '.GIT' could stand for git's own folder"),
            (
                ["users", "u1", ".GIT", "hooks.json"], "100644", document,
                "users/u1/.GIT/hooks.json: '.GIT' could stand for git's own folder"
            ),
            (["users", "u1", "GIT~1", "x.json"], "100644", document, "users/u1/GIT~1/x.json: 'GIT~1' could stand for git's own folder"),
            (
                ["users", "u1", "books", "b9.json"], "120000", try remote.blob("../../../.git/config"),
                "users/u1/books/b9.json is a symbolic link; a store holds plain files only"
            ),
            (
                ["users", "u1", "books", "b9"], "160000", try remote.head(),
                "users/u1/books/b9 is a submodule; a store holds plain files only"
            ),
            (["users", "u2", "books", "b1.json"], "100644", document, "users/u2/books/b1.json belongs to another user than u1"),
            (["users", "u2.json"], "100644", document, "users/u2.json belongs to another user than u1"),
            (["users", "u1", "books\\b9.json"], "100644", document, "users/u1/books\\b9.json: a name with a backslash"),
        ]
        let published = try remote.head()
        for crafted in cases {
            let commit = try remote.commit(setting: crafted.names, mode: crafted.mode, id: crafted.id)
            try cli.expectRefused(["sync"], saying: "refused commit \(commit.prefix(7)) from the remote: \(crafted.says)")
            #expect(!FileManager.default.fileExists(atPath: cli.home + "/u1/users/u2"))
            try remote.reset(to: published)
        }
        // The store still syncs once the remote is sound again.
        #expect(try cli("sync").status == 0)
        #expect(try cli.git("u1", "status", "--porcelain").stdout.isEmpty)
    }
}
