import CGit2

/// A name, an e-mail address and a time, as stored in a commit's author and committer lines.
public struct Signature: Hashable, Sendable {
    public var name: String
    public var email: String
    /// Seconds since 1970-01-01 UTC.
    public var time: Int64
    /// The writer's offset from UTC, in minutes.
    public var offsetMinutes: Int32

    public init(name: String, email: String, time: Int64, offsetMinutes: Int32 = 0) {
        self.name = name
        self.email = email
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    init(_ signature: UnsafePointer<git_signature>) {
        let value = signature.pointee
        name = String(cString: value.name)
        email = String(cString: value.email)
        time = value.when.time
        offsetMinutes = value.when.offset
    }

    /// `Name <email> seconds ±hhmm`, as a commit's author and committer lines and a reflog
    /// line write it.
    var identityLine: String {
        let offset = abs(offsetMinutes)
        let hours = offset / 60 < 10 ? "0\(offset / 60)" : "\(offset / 60)"
        let minutes = offset % 60 < 10 ? "0\(offset % 60)" : "\(offset % 60)"
        return "\(name) <\(email)> \(time) \(offsetMinutes < 0 ? "-" : "+")\(hours)\(minutes)"
    }

    /// Calls `body` with a libgit2 signature that lives for the call (`git_signature_new`).
    func withSignature<T>(_ body: (UnsafePointer<git_signature>) throws(GitError) -> T) throws(GitError) -> T {
        var signature: UnsafeMutablePointer<git_signature>?
        try check(git_signature_new(&signature, name, email, time, offsetMinutes), "git_signature_new")
        defer { git_signature_free(signature) }
        return try body(signature!)
    }
}
