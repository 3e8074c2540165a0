import CairnCore
import CairnMerge
import CairnMergeLaws
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A document sealed with the store's key: the same document at the same path under the same
/// key is the same bytes on every device, anything else is different bytes; it opens only at
/// its path, unaltered, and its bytes show none of its values.
@Suite(.historiesVerified) struct EncryptedDocumentTests {
    let key = try! StoreKey(bytes: 0..<32)
    var cipher: DocumentCipher { DocumentCipher(key: key) }
    let book = Array(#"{"finished":false,"title":"Moby-Dick; or, The Whale"}"#.utf8)

    /// Format 1, computed apart from Cairn (Python's `cryptography`: HKDF, HMAC and
    /// AES-GCM-SIV, following the scheme of ``DocumentCipher``): what a store writes may not
    /// change without a new format version.
    @Test func formatOneIsTheSchemeItsDocumentationDescribes() throws {
        let plaintext = Array(#"{"title":"Moby-Dick; or, The Whale"}"#.utf8)
        let expected =
            "434149524e0001331c3c62ef714b30001675736572732f75312f626f6f6b732f62312e6a736f6ed6656f820925303e5099ff613e29b0be6e58770d31f88ab13ae49b88b6c0a4f10f78cd37c66ee5fab202061bb444120aa6f83de66f99a19e3259270dfdac175a"
        let sealed = try cipher.seal(plaintext, at: path("users/u1/books/b1"))
        #expect(hex(sealed) == expected)
        #expect(key.id.description == "331c3c62ef714b30")
        #expect(try cipher.open(sealed, at: "users/u1/books/b1.json") == plaintext)
        // Its header names its path, for a reader that has the blob alone.
        #expect(DocumentCipher.path(of: sealed) == "users/u1/books/b1.json")
        let opened = try cipher.open(sealed)
        #expect(opened.path == "users/u1/books/b1.json" && opened.document == plaintext)
    }

    @Test func theSameDocumentAtTheSamePathUnderTheSameKeyIsTheSameBlob() throws {
        let first = try cipher.seal(book, at: "users/u1/books/b1.json")
        let again = try DocumentCipher(key: StoreKey(bytes: 0..<32)).seal(book, at: "users/u1/books/b1.json")
        #expect(first == again)
        #expect(DocumentCipher.isSealed(first))
        #expect(DocumentCipher.keyID(of: first) == key.id)
    }

    @Test func anotherPathAnotherKeyOrAnotherByteIsAnotherBlob() throws {
        let sealed = try cipher.seal(book, at: "users/u1/books/b1.json")
        let otherPath = try cipher.seal(book, at: "users/u1/books/b2.json")
        let otherKey = try DocumentCipher(key: StoreKey(bytes: 1...32)).seal(book, at: "users/u1/books/b1.json")
        var edited = book
        edited[edited.count - 3] ^= 0x20
        let otherDocument = try cipher.seal(edited, at: "users/u1/books/b1.json")
        #expect(Set([sealed, otherPath, otherKey, otherDocument]).count == 4)
        // Not only the header: the nonces differ too, so equal documents at two paths do not show.
        let nonces = [sealed, otherPath, otherKey, otherDocument].map { Array($0[39..<51]) }
        #expect(Set(nonces).count == 4)
    }

    @Test func generatedDocumentsOfEveryKindComeBackWhole() throws {
        var random = SplitMix(seed: 18)
        let set = try SchemaSet(files: shippedSchemaSet("bonfire").files)
        let generator = DocumentGenerator(set: set)
        var seen: Set<[UInt8]> = []
        for round in 0..<20 {
            for kind in set.kinds {
                let at = try generator.path(of: kind, fresh: true, using: &random)
                let plaintext = try generator.document(of: kind, at: at, using: &random).canonicalBytes()
                let sealed = try cipher.seal(plaintext, at: at)
                #expect(try cipher.open(sealed, at: at) == plaintext, "round \(round), \(at)")
                #expect(sealed.count == plaintext.count + 17 + at.fileName.utf8.count + 12 + 16)
                #expect(!containsWindow(of: plaintext, in: sealed, length: 12), "\(at) shows its plaintext")
                seen.insert(sealed)
            }
        }
        #expect(seen.count == 20 * set.kinds.count)
    }

    @Test func theBlobShowsNoneOfTheDocumentsValues() throws {
        let sealed = try cipher.seal(book, at: "users/u1/books/b1.json")
        #expect(!containsWindow(of: Array("Moby-Dick; or, The Whale".utf8), in: sealed, length: 12))
        #expect(!containsWindow(of: Array("\"finished\":false".utf8), in: sealed, length: 12))
        // An empty document and a long repetitive one alike.
        let long = Array(("{\"notes\":\"" + String(repeating: "the same words again ", count: 200) + "\"}").utf8)
        #expect(!containsWindow(of: long, in: try cipher.seal(long, at: "users/u1/notes/n1.json"), length: 12))
        #expect(try cipher.open(try cipher.seal([], at: "users/u1/e/e1.json"), at: "users/u1/e/e1.json") == [])
    }

    @Test func everyAlteredByteIsRefusedWithItsOwnReason() throws {
        let sealed = try cipher.seal(book, at: "users/u1/books/b1.json")
        for index in sealed.indices {
            for flip: UInt8 in [0x01, 0x80] {
                var altered = sealed
                altered[index] ^= flip
                let error = #expect(throws: CairnError.self) { try cipher.open(altered, at: "users/u1/books/b1.json") }
                switch index {
                case 0..<6:
                    #expect(error?.message.contains("it is not encrypted") == true, "byte \(index)")
                case 6:
                    #expect(error?.message.contains("is in cipher format \(1 ^ flip)") == true, "byte \(index)")
                case 7..<15:
                    #expect(
                        error?.code == .notFound && error?.message.contains("which is not among the keys given (\(key.id))") == true,
                        "byte \(index)")
                case 15..<17:
                    // Another length: the path read from the header is another, or runs past the end.
                    #expect(
                        error?.message.contains("it was encrypted for") == true || error?.message.contains("is cut short") == true,
                        "byte \(index)")
                case 17..<39:
                    #expect(error?.message.contains("it was encrypted for ") == true, "byte \(index)")
                default:
                    #expect(
                        error?.code == .corrupt && error?.message.contains("it fails authentication under key \(key.id)") == true,
                        "byte \(index)")
                }
            }
        }
        // Cut short, or grown by a byte.
        for count in [0, 5, 6, 15, 17, 38, 42, 66, sealed.count - 1] {
            #expect(throws: CairnError.self) { try cipher.open(Array(sealed.prefix(count)), at: "users/u1/books/b1.json") }
        }
        let cut = #expect(throws: CairnError.self) { try cipher.open(Array(sealed.prefix(30)), at: "users/u1/books/b1.json") }
        #expect(cut?.message.contains("is cut short (30 bytes, at least 67 expected)") == true)
        #expect(throws: CairnError.self) { try cipher.open(sealed + [0], at: "users/u1/books/b1.json") }
    }

    @Test func aBlobMovedToAnotherPathFailsToOpen() throws {
        let sealed = try cipher.seal(book, at: "users/u1/books/b1.json")
        let error = #expect(throws: CairnError.self) { try cipher.open(sealed, at: path("users/u1/books/b2")) }
        #expect(
            error?.description
                == "cannot decrypt users/u1/books/b2.json: it was encrypted for users/u1/books/b1.json — a blob moved from another path; restore it from the store's history or its remote"
        )
        // A header rewritten to name the new path does not pass either: the header is authenticated.
        var renamed = sealed
        renamed[33] = UInt8(ascii: "2")
        let forged = #expect(throws: CairnError.self) { try cipher.open(renamed, at: "users/u1/books/b2.json") }
        #expect(forged?.message.contains("it fails authentication under key \(key.id)") == true)
    }

    @Test func aPlainDocumentIsNotTakenForAnEncryptedOne() throws {
        let error = #expect(throws: CairnError.self) { try cipher.open(book, at: "users/u1/books/b1.json") }
        #expect(error?.code == .corrupt)
        #expect(error?.message.hasPrefix("cannot decrypt users/u1/books/b1.json: it is not encrypted") == true)
        #expect(!DocumentCipher.isSealed(book))
        #expect(DocumentCipher.keyID(of: book) == nil)
    }

    @Test func aPathWithANulByteOrNoneIsRefused() throws {
        for bad in ["", "users/u1\u{0}/books/b1.json"] {
            let error = #expect(throws: CairnError.self) { try cipher.seal(book, at: bad) }
            #expect(error?.code == .invalidInput)
        }
    }

    private func containsWindow(of plaintext: [UInt8], in sealed: [UInt8], length: Int) -> Bool {
        guard plaintext.count >= length else { return false }
        let windows = Set((0...(plaintext.count - length)).map { Array(plaintext[$0..<$0 + length]) })
        guard sealed.count >= length else { return false }
        return (0...(sealed.count - length)).contains { windows.contains(Array(sealed[$0..<$0 + length])) }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
