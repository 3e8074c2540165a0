import Foundation

/// The temporary folders made while one test runs (every ``TemporaryFolder`` made in its
/// task), kept until the test is over, so that a check of what they hold — the histories of
/// the stores and servers the test made — runs after the test's own values are gone. Folders
/// a test left on purpose in a state the check would refuse are exempted, with the reason.
public final class TestFolders: @unchecked Sendable {
    /// The folders of the test running in this task, if something keeps them.
    @TaskLocal public static var current: TestFolders?

    private let lock = NSLock()
    private var paths: [String] = []
    private var exemptions: [(path: String, reason: String)] = []
    private var exemptCommits: [String: String] = [:]

    public init() {}

    /// The folders made, in the order they were made.
    public var all: [String] { lock.withLock { paths } }

    func keep(_ path: String) {
        lock.withLock { paths.append(path) }
    }

    /// Leaves `path` and everything below it out of the check, for `reason`.
    public func exempt(_ path: String, because reason: String) {
        lock.withLock { exemptions.append((path.hasSuffix("/") ? String(path.dropLast()) : path, reason)) }
    }

    /// Leaves the findings of the commit `id` (40 hex digits) out of the check, wherever it
    /// is, for `reason`: a commit another git tool made that breaks a rule on purpose.
    public func exempt(commit id: String, because reason: String) {
        lock.withLock { exemptCommits[id.lowercased()] = reason }
    }

    /// Why the commit `id` is left out of the check; nil when it is not.
    public func exemption(ofCommit id: String) -> String? {
        lock.withLock { exemptCommits[id.lowercased()] }
    }

    /// Why `path` is left out of the check; nil when it is not.
    public func exemption(of path: String) -> String? {
        lock.withLock { exemptions.first { path == $0.path || path.hasPrefix($0.path + "/") }?.reason }
    }

    /// Removes every folder kept.
    public func removeAll() {
        for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
