import CairnToolTestSupport
import Crypto
import Foundation
import Testing
import _CryptoExtras

/// The document cipher rests on swift-crypto's AES-GCM-SIV: the test vectors of RFC 8452
/// (appendix C.2, AEAD_AES_256_GCM_SIV) come out of it byte for byte, so a change of the
/// library's behaviour is caught here before it changes what stores hold.
@Suite(.historiesVerified) struct AESGCMSIVKnownAnswerTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var key: String
        var nonce: String
        var aad: String
        var plaintext: String
        /// Ciphertext then tag, as the RFC's "Result".
        var result: String
        var testDescription: String { "plaintext \(plaintext.count / 2) bytes, aad \(aad.count / 2) bytes" }
    }

    static let vectors: [Vector] = [
        Vector(
            key: "0100000000000000000000000000000000000000000000000000000000000000", nonce: "030000000000000000000000",
            aad: "", plaintext: "", result: "07f5f4169bbf55a8400cd47ea6fd400f"),
        Vector(
            key: "0100000000000000000000000000000000000000000000000000000000000000", nonce: "030000000000000000000000",
            aad: "", plaintext: "0100000000000000", result: "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28"),
        Vector(
            key: "0100000000000000000000000000000000000000000000000000000000000000", nonce: "030000000000000000000000",
            aad: "", plaintext: "0100000000000000000000000000000002000000000000000000000000000000",
            result: "4a6a9db4c8c6549201b9edb53006cba821ec9cf850948a7c86c68ac7539d027fe819e63abcd020b006a976397632eb5d"),
        Vector(
            key: "0100000000000000000000000000000000000000000000000000000000000000", nonce: "030000000000000000000000",
            aad: "01", plaintext: "0200000000000000", result: "1de22967237a813291213f267e3b452f02d01ae33e4ec854"),
        Vector(
            key: "0100000000000000000000000000000000000000000000000000000000000000", nonce: "030000000000000000000000",
            aad: "010000000000000000000000000000000200", plaintext: "0300000000000000000000000000000004000000",
            result: "43dd0163cdb48f9fe3212bf61b201976067f342bb879ad976d8242acc188ab59cabfe307"),
        Vector(
            key: "e66021d5eb8e4f4066d4adb9c33560e4f46e44bb3da0015c94f7088736864200", nonce: "e0eaf5284d884a0e77d31646",
            aad: "", plaintext: "", result: "169fbb2fbf389a995f6390af22228a62"),
        Vector(
            key: "bae8e37fc83441b16034566b7a806c46bb91c3c5aedb64a6c590bc84d1a5e269", nonce: "e4b47801afc0577e34699b9e",
            aad: "4fbdc66f14", plaintext: "671fdd", result: "0eaccb93da9bb81333aee0c785b240d319719d"),
        Vector(
            key: "d1894728b3fed1473c528b8426a582995929a1499e9ad8780c8d63d0ab4149c0", nonce: "9f572c614b4745914474e7c7",
            aad: "489c8fde2be2cf97e74e932d4ed87d", plaintext: "c9882e5386fd9f92ec",
            result: "0df9e308678244c44bc0fd3dc6628dfe55ebb0b9fb2295c8c2"),
    ]

    @Test(arguments: vectors)
    func theRFC8452VectorsSealAndOpenByteForByte(_ vector: Vector) throws {
        let key = SymmetricKey(data: try hex(vector.key))
        let nonce = try AES.GCM._SIV.Nonce(data: try hex(vector.nonce))
        let sealed = try AES.GCM._SIV.seal(try hex(vector.plaintext), using: key, nonce: nonce, authenticating: try hex(vector.aad))
        #expect(Array(sealed.ciphertext + sealed.tag) == (try hex(vector.result)))
        #expect(Array(try AES.GCM._SIV.open(sealed, using: key, authenticating: try hex(vector.aad))) == (try hex(vector.plaintext)))
        // Other associated data fails to open.
        #expect(throws: (any Error).self) {
            try AES.GCM._SIV.open(sealed, using: key, authenticating: try hex(vector.aad) + [0xff])
        }
    }

    private func hex(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            try #require(UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16))
        }
    }
}
