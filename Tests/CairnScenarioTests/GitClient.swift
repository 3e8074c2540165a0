import CairnTestSupport
import Foundation
import Testing

/// Another git implementation opening a store, as the apps, scripts and IDEs built on it do:
/// pygit2 (libgit2) and dulwich from PyPI, Debian's python3-pygit2 (libgit2 1.5) and
/// python3-dulwich, and Debian's JGit. The programs are in `Tests/GitClients`;
/// `scripts/git-clients.sh` makes their virtual environment or build and runs them.
enum GitClient: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pygit2
    case dulwich
    case pygit2Debian = "pygit2-debian"
    case dulwichDebian = "dulwich-debian"
    case jgitDebian = "jgit-debian"

    var testDescription: String { rawValue }

    /// Part of the first line the client prints, naming its library: what makes sure the
    /// tests run the versions they are meant to (a current libgit2 and Debian's 1.5, both
    /// dulwichs, JGit).
    var library: String {
        switch self {
        case .pygit2: "libgit2 1.9."
        case .dulwich: "library dulwich 1."
        case .pygit2Debian: "libgit2 1.5."
        case .dulwichDebian: "library dulwich 0.21."
        case .jgitDebian: "library jgit 4.11."
        }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/git-clients.sh").path

    /// Why each client that cannot run on this machine could not be made, found once per test
    /// run: the first run installs from PyPI and compiles the Java client, which takes far
    /// longer than running a client.
    static let problems: [GitClient: String] = allCases.reduce(into: [:]) { problems, client in
        do {
            let prepared = try runBounded("/bin/bash", [script, "prepare", client.rawValue], limit: 600)
            if prepared.status != 0 {
                problems[client] = "\(client.rawValue) could not be made (exit \(prepared.status)): \(prepared.stderr)"
            }
        } catch {
            problems[client] = "\(client.rawValue): could not run \(script): \(error)"
        }
    }

    /// Why the client cannot run on this machine (nil when it can). Never a reason to skip:
    /// `scripts/install-deps.sh --tests` installs every client's Debian packages.
    var unavailable: String? { Self.problems[self] }

    /// What a run of the client printed.
    struct Report {
        let result: ProcessResult
        /// The first line, naming the library.
        var library: String { result.stdout.split(separator: "\n").first.map(String.init) ?? "" }
        /// Every path of the index, in the index's order.
        var entries: [String] { values("entry") }
        /// Whether the client found the status clean.
        var clean: Bool { result.stdout.split(separator: "\n").contains("clean") }
        /// The commit the client made, if it made one.
        var commit: String? { values("commit").first }

        private func values(_ label: String) -> [String] {
            result.stdout.split(separator: "\n").compactMap { line in
                line.hasPrefix(label + " ") ? String(line.dropFirst(label.count + 1)) : nil
            }
        }
    }

    /// Opens the store, reads its index and its status.
    func read(_ store: String) throws -> Report {
        Report(result: try runBounded("/bin/bash", [Self.script, "run", rawValue, store, "read"], limit: 120))
    }

    /// Reads the store as ``read(_:)`` does, then writes `document` with `fields` (digits are
    /// integers) in canonical JSON, stages it and commits it on the current branch.
    func commit(_ store: String, document: String, fields: [(String, String)]) throws -> Report {
        let arguments = [Self.script, "run", rawValue, store, "commit", document] + fields.map { "\($0)=\($1)" }
        return Report(result: try runBounded("/bin/bash", arguments, limit: 120))
    }
}
