import CGit2
import GitFormat

extension ObjectID {
    /// Takes libgit2's `git_oid`.
    init(_ oid: git_oid) {
        var copy = oid
        self.init(rawBytes: withUnsafeBytes(of: &copy.id) { Array($0) })
    }

    /// The id as libgit2's `git_oid`.
    var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { $0.copyBytes(from: bytes) }
        return oid
    }
}
