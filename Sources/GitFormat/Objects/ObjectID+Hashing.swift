import Crypto

extension ObjectID {
    /// The id git gives an object of `type` holding `content`: the SHA-1 of its header and
    /// content (what `git hash-object` prints and `git_odb_hash` computes), hashed in two
    /// parts so the content is not copied.
    package init(hashing content: [UInt8], type: ObjectType) {
        var hasher = Insecure.SHA1()
        hasher.update(data: type.header(size: content.count))
        hasher.update(data: content)
        self.init(rawBytes: Array(hasher.finalize()))
    }
}
