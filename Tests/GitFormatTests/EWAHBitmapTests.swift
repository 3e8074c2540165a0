import Testing

@testable import GitFormat

/// The bitmaps of a split index's `link` extension: what is encoded decodes the same, and a
/// damaged bitmap is refused, never a request for billions of positions.
@Suite struct EWAHBitmapTests {
    @Test func anEmptySetIsOneMarkerWord() {
        let bytes = EWAHBitmap.encode([])
        #expect(bytes == [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(EWAHBitmap.decode(bytes[...])?.positions == [])
    }

    @Test func roundTripsRandomSets() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let size = Int.random(in: 1...5_000, using: &generator)
            let density = Double.random(in: 0...0.3, using: &generator)
            let positions = (0..<size).filter { _ in Double.random(in: 0...1, using: &generator) < density }
            let encoded = EWAHBitmap.encode(positions)
            let decoded = EWAHBitmap.decode(encoded[...])
            #expect(decoded?.positions == positions)
            #expect(decoded?.length == encoded.count)
        }
    }

    @Test func sparseSetsStaySmall() {
        let encoded = EWAHBitmap.encode([3, 100_000, 1_000_000])
        #expect(encoded.count <= 12 + 8 * 6)
        #expect(EWAHBitmap.decode(encoded[...])?.positions == [3, 100_000, 1_000_000])
    }

    @Test func refusesATruncatedBitmap() {
        let encoded = EWAHBitmap.encode([1, 2, 3, 700])
        #expect(EWAHBitmap.decode(encoded.dropLast(5)) == nil)
    }

    @Test func aBitmapWithAnEndlessRunIsRefused() {
        // One marker word: running bit set, running length 2^32 − 1 words.
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt32(64))
        bytes.appendBigEndian(UInt32(1))
        bytes.appendBigEndian(UInt64(0xFFFF_FFFF) << 1 | 1)
        bytes.appendBigEndian(UInt32(0))
        #expect(EWAHBitmap.decode(bytes[...]) == nil)
    }
}
