import GitFormat

/// Which of the deployment's 1,024 buckets a user belongs to: the CRC-32 of their uid (zlib's,
/// the same as HAProxy's `crc32` converter), modulo 1,024. HAProxy computes it for every
/// request (`path,field(3,/),…,crc32,mod(1024)`) and looks the shard up in a map of buckets;
/// Cairn computes the same number to know which users a bucket holds. Both sides use a
/// standard checksum, never a router's internal hash, so a move never depends on copying one.
public enum UserBucket {
    /// How many buckets there are, whatever the number of shards: a shard holds whole buckets.
    public static let count = 1_024

    /// The bucket of `uid`.
    public static func of(_ uid: String) -> Int {
        Int(CRC32.checksum(ArraySlice(uid.utf8)) % UInt32(count))
    }
}
