/// Reading integers stored big-endian from a mapped file, at any alignment.
extension UnsafeRawBufferPointer {
    func loadBigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
