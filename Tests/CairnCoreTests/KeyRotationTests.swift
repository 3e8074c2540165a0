import CairnCore
import CairnToolTestSupport
import Testing

/// A rotation: the new key seals from then on, the documents sealed before it still open
/// through the keyring of previous keys, and a key the keyring lacks is named.
@Suite(.historiesVerified) struct KeyRotationTests {
    let old = StoreKey.generate()
    let new = StoreKey.generate()
    let book = Array(#"{"title":"The Left Hand of Darkness"}"#.utf8)

    @Test func aBlobSealedUnderAPreviousKeyOpensThroughTheKeyring() throws {
        let before = try DocumentCipher(key: old).seal(book, at: "users/u1/books/b1.json")
        let keyring = Keyring(current: old).rotated(to: new)
        #expect(keyring.current == new && keyring.previous == [old])
        let cipher = DocumentCipher(keyring: keyring)
        #expect(try cipher.open(before, at: "users/u1/books/b1.json") == book)
        // Sealing takes the new key: re-encrypting the current documents gives new blobs that
        // the new key alone opens.
        let after = try cipher.seal(book, at: "users/u1/books/b1.json")
        #expect(after != before)
        #expect(DocumentCipher.keyID(of: after) == new.id)
        #expect(try DocumentCipher(key: new).open(after, at: "users/u1/books/b1.json") == book)
        #expect(throws: CairnError.self) { try DocumentCipher(key: old).open(after, at: "users/u1/books/b1.json") }
    }

    @Test func aKeyTheKeyringLacksIsNamedInTheError() throws {
        let sealed = try DocumentCipher(key: old).seal(book, at: "users/u1/books/b1.json")
        let error = #expect(throws: CairnError.self) {
            try DocumentCipher(key: new).open(sealed, at: "users/u1/books/b1.json")
        }
        #expect(error?.code == .notFound)
        #expect(
            error?.description
                == "cannot decrypt users/u1/books/b1.json: it was encrypted with key \(old.id), which is not among the keys given (\(new.id)); give the key file or keyring that holds key \(old.id)"
        )
    }

    @Test func aKeyringHoldsEachKeyOnceAndShowsNoKey() throws {
        let keyring = Keyring(current: new, previous: [old, new, old])
        #expect(keyring.previous == [old])
        #expect(keyring.key(withID: old.id) == old)
        #expect(keyring.key(withID: StoreKey.generate().id) == nil)
        #expect(old.description == "store key \(old.id)")
        #expect(!old.description.contains(old.base64))
        #expect(old.id.description.count == 16)
        #expect(old.id != new.id)
    }
}
