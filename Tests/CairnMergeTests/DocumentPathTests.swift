import Testing

@testable import CairnMerge

@Suite struct DocumentPathTests {
    @Test func aDocumentIsAFileAndItsSubcollectionsAFolder() throws {
        let path = try DocumentPath("users/u1/books/b1")
        #expect(path.fileName == "users/u1/books/b1.json")
        #expect(path.folderName == "users/u1/books/b1")
        #expect(path.id == "b1")
        #expect(path.collection.description == "users/u1/books")
        #expect(try DocumentPath("users/u1").fileName == "users/u1.json")
        #expect(DocumentPath(fileName: "users/u1/books/b1.json") == path)
        #expect(DocumentPath(fileName: "users/u1/books.json") == nil)
        #expect(DocumentPath(fileName: "users/u1/books/b1.txt") == nil)
    }

    @Test func pathsAlternateCollectionAndDocument() throws {
        #expect(throws: PathError.self) { try DocumentPath("users/u1/books") }
        #expect(throws: PathError.self) { try CollectionPath("users/u1") }
        #expect(try CollectionPath("users/u1/books").description == "users/u1/books")
        #expect(try CollectionPath("users/u1/books").document("b2") == DocumentPath("users/u1/books/b2"))
    }

    /// Each refused ID with the rule it breaks; the message names the ID.
    @Test(arguments: [
        ("", PathError.Rule.empty),
        (".", .dotName), ("..", .dotName),
        ("__id__", .reserved), ("__x__", .reserved),
        (".git", .leadingDot), (".hidden", .leadingDot),
        ("a\u{0}b", .controlCharacter), ("tab\there", .controlCharacter), ("line\nbreak", .controlCharacter),
        ("b1.json", .jsonSuffix), ("B1.JSON", .jsonSuffix),
        ("GIT~1", .shortName), ("git~12", .shortName), ("git~1 ", .shortName), ("GIT~2.", .shortName),
        ("a\\b", .backslash), ("\\", .backslash),
        (".\u{307}", .leadingDot),
        (String(repeating: "x", count: 251), .tooLong),
        (String(repeating: "é", count: 126), .tooLong),
    ])
    func refusesAnIDThatBreaksARule(id: String, rule: PathError.Rule) throws {
        do {
            try DocumentID.validate(id, in: "users/u1/books/\(id)")
            Issue.record("\(id.debugDescription) was accepted")
        } catch {
            #expect(error.rule == rule)
            #expect(error.description.contains("invalid ID"))
        }
    }

    @Test func acceptsWhatFirestoreAccepts() throws {
        for id in [
            "u1", "attempt-1730000000000", "+447700900123", "Ünïcödé", "with space", "a.b", "_x_", "__x", "x__", "😀",
            String(repeating: "x", count: 250), "git~", "git~x",
        ] {
            #expect(throws: Never.self) { try DocumentID.validate(id, in: id) }
        }
    }

    /// A '/' followed by a combining mark is one Character but still a '/' in the file's name:
    /// paths split, and IDs are checked, by bytes.
    @Test func aSlashBeforeACombiningMarkSplitsThePath() throws {
        let path = try DocumentPath("users/u1/books/b1/notes/\u{307}")
        #expect(path.segments == ["users", "u1", "books", "b1", "notes", "\u{307}"])
        #expect(throws: PathError.self) { try DocumentPath("users/u1/books/b1/\u{307}") }
        #expect(throws: PathError.self) { try DocumentID.validate("x/\u{307}", in: "x/\u{307}") }
    }

    /// U+0600 joins the '.' after it into one Character: the file's `.json` suffix is still
    /// found, by bytes, so the document reads back from its file name.
    @Test func aDocumentWhoseIDEndsInAPrependedMarkReadsBackFromItsFile() throws {
        let path = try DocumentPath("users/u1/books/b.json\u{600}")
        #expect(DocumentPath(fileName: path.fileName) == path)
        #expect(DocumentID.stem(ofFileName: "b1.json") == "b1")
        #expect(DocumentID.stem(ofFileName: ".json") == nil)
        #expect(DocumentID.stem(ofFileName: "b1.txt") == nil)
    }

    @Test func refusesEmptySegmentsAndSlashes() throws {
        for text in ["", "/users/u1", "users/u1/", "users//u1", "users/u1/books//b1"] {
            #expect(throws: PathError.self, "\(text.debugDescription)") { try DocumentPath(text) }
        }
    }

    @Test func theMessageSaysWhatWasWrong() throws {
        do {
            _ = try DocumentPath("users/u1/books/..")
            Issue.record("accepted")
        } catch {
            #expect(error.description == #"invalid ID ".." in "users/u1/books/..": '.' and '..' are not IDs"#)
        }
    }

    @Test func idsThatDifferOnlyInCaseOrNormalizationCollide() {
        #expect(DocumentID.collide("Doc", "doc"))
        #expect(DocumentID.collide("caf\u{E9}", "cafe\u{301}"))  // NFC and NFD
        #expect(!DocumentID.collide("doc", "doc"))
        #expect(!DocumentID.collide("doc", "doc2"))
    }

    /// The byte-by-byte check of a collection's entries against a new ID gives what the
    /// reference (``DocumentID/collide(_:_:)`` of the ID and the entry's ID) gives: for files
    /// and folders, ASCII in every case, and the non-ASCII names that lower to ASCII or change
    /// length (the Kelvin sign, a dotted capital I, NFC against NFD).
    @Test func anEntryCollidesWithAnIDAsTheReferenceSays() {
        let letters = ["a", "A", "k", "K", "\u{212A}", "i", "I", "\u{130}", "\u{E9}", "e\u{301}", "\u{C9}", "-", "1", "\u{DF}", "ss"]
        var random = SplitMix(seed: 19)
        for _ in 0..<20_000 {
            func word() -> String {
                (0..<Int.random(in: 1...4, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined()
            }
            let id = word()
            let other = Int.random(in: 0..<3, using: &random) == 0 ? id.uppercased() : word()
            for name in [other, other + ".json", ".json", other + ".JSON"] {
                let expected = DocumentID.collide(id, DocumentID.stem(ofFileName: name) ?? name)
                #expect(DocumentID.collides(id, withEntry: name) == expected, "\(id) against \(name)")
            }
        }
        #expect(DocumentID.collides("Doc", withEntry: "doc.json"))
        #expect(DocumentID.collides("Doc", withEntry: "doc"))
        #expect(!DocumentID.collides("doc", withEntry: "doc.json"))
        #expect(DocumentID.collides("kelvin", withEntry: "\u{212A}elvin.json"))
    }

    /// The glance that accepts most IDs accepts only IDs that every rule accepts, and the
    /// byte-by-byte test for git's folder names answers as Unicode's lowercase does: random
    /// IDs built from the pieces each rule looks at (dots, `__`, `.json` in any case, `git~`,
    /// spaces, slashes, control characters, the Kelvin sign, a dotted capital I).
    @Test func theQuickChecksOfAnIDAgreeWithEveryRule() {
        let pieces = [
            "a", "Z", "0", "7", "-", "_", "__", ".", "..", "~", " ", "/", "\\", "\u{1}", "\u{7F}", "\u{85}",
            "\u{212A}", "\u{130}", "\u{131}", "\u{E9}", "json", "JSON", ".json", ".JsOn", "git", "GIT", "Git~", "g",
            "i", "t", "1",
        ]
        var random = SplitMix(seed: 83)
        var plain = 0
        var refused = 0
        for round in 0..<40_000 {
            var id = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            if round % 500 == 0 { id = String(repeating: "a", count: DocumentID.maxBytes + round % 2 - 1) + id }
            let everyRule = Result { () throws(PathError) in try DocumentID.validateByEveryRule(id, in: id) }
            let acceptedByEveryRule = (try? everyRule.get()) != nil
            if DocumentID.isPlainlyValid(id) {
                plain += 1
                #expect(acceptedByEveryRule, "\(id.debugDescription) passed at a glance but breaks a rule")
            }
            if !acceptedByEveryRule { refused += 1 }
            #expect(((try? DocumentID.validate(id, in: id)) != nil) == acceptedByEveryRule, "\(id.debugDescription)")
            #expect(DocumentID.namesGitFolder(id) == DocumentID.namesGitFolderFolding(id), "\(id.debugDescription)")
        }
        // Both kinds were drawn often enough for the comparison to mean something.
        #expect(plain > 2_000 && refused > 10_000, "plain \(plain), refused \(refused)")
        for name in [".git", ".GIT. .", "git~1", "GIT~12 ", "\u{212A}"] {
            #expect(DocumentID.namesGitFolder(name) == DocumentID.namesGitFolderFolding(name), "\(name)")
        }
        #expect(DocumentID.namesGitFolder(".Git .") && DocumentID.namesGitFolder("gIt~3") && !DocumentID.namesGitFolder("git~"))
    }

    /// Paths sort by the bytes of their text, which `<` compares without making the text:
    /// IDs with bytes below `/` (`-`, `.`, a space), prefixes of one another and non-ASCII
    /// IDs among them.
    @Test func pathsSortByTheBytesOfTheirText() throws {
        let ids = ["a", "a-b", "a.b", "a b", "ab", "a0", "b", "caf\u{E9}", "cafe\u{301}", "z", "A", "\u{1F600}"]
        var generator = SplitMix(seed: 51)
        func path() throws -> DocumentPath {
            let pairs = 1 + Int(generator.next() % 3)
            var segments: [String] = []
            for _ in 0..<(pairs * 2) { segments.append(ids[Int(generator.next() % UInt64(ids.count))]) }
            return try DocumentPath(segments.joined(separator: "/"))
        }
        for _ in 0..<5_000 {
            let (left, right) = (try path(), try path())
            #expect((left < right) == left.description.utf8.lexicographicallyPrecedes(right.description.utf8), "\(left) < \(right)")
        }
    }
}
