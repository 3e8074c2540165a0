@testable import Git
import Foundation
import Testing

@Suite struct SHA1Tests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func knownAnswers() {
        #expect(hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func feedingInPiecesGivesTheSameDigest() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var hasher = SHA1()
            var rest = bytes[...]
            while !rest.isEmpty {
                let take = min(rest.count, Int.random(in: 1...70, using: &generator))
                hasher.update(Array(rest.prefix(take)))
                rest = rest.dropFirst(take)
            }
            #expect(hasher.finish() == SHA1.hash(bytes), "length \(length)")
        }
    }
}
