import CairnTestSupport
import Foundation
import Testing

/// Bad input gets one clear line on stderr, a non-zero exit, and changes nothing. The
/// inputs the hostile-input catalogue lists are in `BadInputCatalogueTests`.
@Suite struct BadInputTests {
    let cli = CLI()

    init() throws {
        try cli.makeStoreToRefuseInto()
    }

    func expectRefused(_ arguments: [String], input: String? = nil, saying phrase: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        try cli.expectRefused(arguments, input: input, saying: phrase, sourceLocation: sourceLocation)
    }

    @Test func malformedJSON() throws {
        try expectRefused(["put", "users/u1/books/b1"], input: #"{"keep": tru}"#, saying: "invalid JSON at line 1")
        try expectRefused(["put", "users/u1/books/b1"], input: #"{"a":1,"a":2}"#, saying: "duplicate key \"a\"")
        try expectRefused(["put", "users/u1/books/b1"], input: "[1]", saying: "a document is a JSON object")
        try expectRefused(["put", "users/u1/books/b1"], input: #"{"x": NaN}"#, saying: "NaN")
        try expectRefused(["put", "users/u1/books/b1"], input: "", saying: "unexpected end of input")
        try expectRefused(["put", "users/u1/books/b1"], input: "\u{FEFF}{}", saying: "byte-order mark")
        try expectRefused(["put", "users/u1/books/b1"], input: String(repeating: "[", count: 10_000), saying: "deeper than 128")
        try expectRefused(["put", "users/u1/books/b1"], input: "{\"a\":\"" + String(repeating: "x", count: 2 << 20) + "\"}", saying: "larger than 1048576 bytes")
    }

    @Test func badPathsAndIDs() throws {
        try expectRefused(["put", "users/u1/books/..", "-"], input: "{}", saying: #"invalid ID ".."#)
        try expectRefused(["put", "users/u1/books/.git"], input: "{}", saying: "may not start with '.'")
        try expectRefused(["put", "users/u1/books/__x__"], input: "{}", saying: "reserved")
        try expectRefused(["put", "users/u1/books/GIT~1"], input: "{}", saying: "Windows")
        try expectRefused(["put", "users/u1/books/b1.json"], input: "{}", saying: "'.json'")
        try expectRefused(["put", "users/u1/books"], input: "{}", saying: "names a collection")
        try expectRefused(["put", "users//u1/books/b3"], input: "{}", saying: "empty segment")
        try expectRefused(["put", "users/u1/books/a\u{1}b"], input: "{}", saying: "control characters")
        try expectRefused(["put", "users/u1/books/B1"], input: "{}", saying: "differs only in case")
        try expectRefused(["put", "users/u2/books/b1"], input: "{}", saying: "outside the store of user u1")
        try expectRefused(["ls", "users/u1"], saying: "names a document")
        try expectRefused(["get", "users/u1/books/none"], saying: "no document at users/u1/books/none")
        try expectRefused(["get", "users/u1/books/b1", "--at", "HEAD~9"], saying: "unknown revision")
        try expectRefused(["rm", "users/u1/books/none"], saying: "no document")
        try expectRefused(["put", "users/u1/books/b3", "/nonexistent/file.json"], saying: "cannot read /nonexistent/file.json")
        try expectRefused(["init", "u1"], saying: "already exists")
        try expectRefused(["init", "bad/uid"], saying: "invalid user id")
        try expectRefused(["use", "nobody"], saying: "no store for user nobody")
        try expectRefused(["--user", "nobody", "ls", "users/nobody/books"], saying: "no store for user nobody")
    }

    @Test func aHomeWithoutUsersSaysHowToStart() throws {
        let empty = CLI()
        let result = try empty("ls", "users/u1/books")
        #expect(result.status == 1)
        #expect(result.stderr == "cairn: no active user in \(empty.home); create one with: cairn init UID (or pick one with: cairn use UID)\n")
    }

    @Test func usageErrorsExitWithTheUsageStatus() throws {
        let result = try cli("put")
        #expect(result.status == 64)
        #expect(result.stderr.contains("Missing expected argument"))
    }
}
