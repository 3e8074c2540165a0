import CairnCore
import CairnTestSupport
import Foundation
import Testing

/// `cairn verify` as an invariant of every test it is given to (`@Suite(.historiesVerified)`):
/// the temporary folders the test makes are kept until it is over (``TestFolders``); then
/// every store in them and every repository holding a store's history — a server's, a bare
/// remote, a clone by another git tool — is audited as `cairn verify` audits it (an
/// encrypted store with the key its own configuration names), and each finding is an issue
/// of the test. A test that leaves a history unsound on purpose says so, with the reason
/// (``HistoriesVerified/exempt(_:because:)``); a test that failed by throwing is not audited.
package struct HistoriesVerified: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds nothing: each of its test cases is audited on its own.
        guard testCase != nil, TestFolders.current == nil else {
            try await function()
            return
        }
        let folders = TestFolders()
        defer { folders.removeAll() }
        try await TestFolders.$current.withValue(folders) { try await function() }
        for problem in Self.problems(in: folders) {
            Issue.record(Comment(rawValue: problem), sourceLocation: test.sourceLocation)
        }
    }

    /// Leaves `path` (a store, a remote, or a folder of them) out of the audit of the running
    /// test, for `reason`: a history the test made unsound on purpose.
    package static func exempt(_ path: String, because reason: String) {
        TestFolders.current?.exempt(path, because: reason)
    }

    /// Leaves the findings of one commit out of the audit of the running test, in every
    /// repository that holds it, for `reason`: a commit another git tool made that breaks a
    /// rule on purpose (and that history keeps under the commit that repairs it). `id` is the
    /// commit's 40 hex digits, as `git rev-parse` prints them (surrounding blanks ignored).
    package static func exempt(commit id: String, because reason: String) {
        TestFolders.current?.exempt(commit: id.trimmingCharacters(in: .whitespacesAndNewlines), because: reason)
    }

    /// ``exempt(commit:because:)`` for the commit the repository (or work tree) at `repository`
    /// is on: the one another git tool just made there.
    package static func exemptHead(of repository: String, because reason: String) {
        guard let head = try? runProcess("/usr/bin/git", ["-C", repository, "rev-parse", "HEAD"]), head.status == 0 else { return }
        exempt(commit: head.stdout, because: reason)
    }

    /// What the audit of every history under the folders found, one text per repository with
    /// findings (or that could not be audited).
    package static func problems(in folders: TestFolders) -> [String] {
        var problems: [String] = []
        for folder in folders.all {
            for gitdir in repositories(under: folder) where folders.exemption(of: gitdir) == nil {
                do {
                    // A store with the keys its configuration names; one whose key file the
                    // test took away, as its server would: sealed.
                    let result =
                        gitdir.hasSuffix("/.git")
                        ? try (try? Store.verifyStore(at: String(gitdir.dropLast(5)), configuration: Configuration()))
                            ?? Store.verifyRepository(at: gitdir)
                        : try Store.verifyRepository(at: gitdir)
                    let findings = result.findings.filter { folders.exemption(ofCommit: $0.commit.hex) == nil }
                    if !findings.isEmpty {
                        problems.append("cairn verify of \(gitdir): " + findings.map(\.description).joined(separator: "; "))
                    }
                } catch {
                    problems.append("cairn verify of \(gitdir) failed: \(error)")
                }
            }
        }
        return problems
    }

    /// The git folders below `folder` that hold a store's history: a store's `.git` (its
    /// documents are not looked into) and bare repositories, at most eight folders down.
    package static func repositories(under folder: String, depth: Int = 8) -> [String] {
        guard depth > 0, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let manager = FileManager.default
        if names.contains(".git"), manager.fileExists(atPath: folder + "/.git/HEAD") {
            return Store.holdsProgress(gitdir: folder + "/.git") ? [folder + "/.git"] : []
        }
        if names.contains("HEAD"), names.contains("objects"), names.contains("refs") {
            return Store.holdsProgress(gitdir: folder) ? [folder] : []
        }
        var found: [String] = []
        for name in names.sorted() where name != "users" && name != ".content" {
            var isFolder: ObjCBool = false
            let path = folder + "/" + name
            guard manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            // Not through symbolic links: a link may lead out of the test's folders.
            guard (try? manager.destinationOfSymbolicLink(atPath: path)) == nil else { continue }
            found += repositories(under: path, depth: depth - 1)
        }
        return found
    }
}

extension Trait where Self == HistoriesVerified {
    /// Every history a test of the suite makes is audited when the test is over (see
    /// ``HistoriesVerified``).
    package static var historiesVerified: Self { HistoriesVerified() }
}
