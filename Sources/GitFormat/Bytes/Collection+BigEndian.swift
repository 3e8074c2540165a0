/// Reading integers stored big-endian, as every binary git format stores them.
extension Collection where Element == UInt8, Index == Int {
    func readBigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    func readBigEndianUInt32(at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in offset..<(offset + 4) { value = value << 8 | UInt32(self[index]) }
        return value
    }

    func readBigEndianUInt64(at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + 8) { value = value << 8 | UInt64(self[index]) }
        return value
    }
}
