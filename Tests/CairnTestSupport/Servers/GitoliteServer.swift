import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// gitolite3 over SSH on 127.0.0.1 for tests, as a server that tells users apart by key: a
/// gitolite hosting home of its own (`gitolite setup`, then its `gitolite.conf` and keydir
/// written and compiled), and sshd whose only authorized keys are the ones gitolite writes —
/// each forcing `gitolite-shell <user>` — with `HOME` set to the hosting home. Every user
/// repository runs Cairn's hook as a gitolite repository hook (`repo-specific-hooks`,
/// `option hook.pre-receive = cairn`). Started and stopped by PID. Needs gitolite3,
/// openssh-server and openssh-client (scripts/install-deps.sh --tests installs them).
public final class GitoliteServer: Sendable {
    /// Why gitolite could not be set up; the description includes what it said.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    public var port: Int { daemon.port }
    /// The PID of sshd.
    public var pid: Int32 { daemon.pid }
    /// The hosting user's home: `repositories/`, `.gitolite/`, `.gitolite.rc`.
    public let base: String
    /// The host key's line for a client's `known_hosts`.
    public var knownHostsLine: String { daemon.knownHostsLine }
    private let daemon: SSHDaemon
    private let folder: TemporaryFolder

    static let gitolite = "/usr/bin/gitolite"

    /// Sets up gitolite with a repository per user of `owners`, which only that user may read
    /// and write, and `readers` (user → the repositories they may read, not write); makes a
    /// key for every user, and `cairn` (the tool's path) the repositories' hook; `content`: the
    /// collections of shared content it serves too (their authors get keys). Then starts sshd.
    public init(
        cairn: String, owners: [String] = ["u1", "u2"], readers: [String: [String]] = [:],
        content: [GitoliteContent] = []
    ) throws {
        let folder = TemporaryFolder("cairn-gitolite")
        let base = folder.path + "/hosting"
        let keys = folder.path + "/keys"
        let files = FileManager.default
        try files.createDirectory(atPath: base, withIntermediateDirectories: true)
        try files.createDirectory(atPath: keys, withIntermediateDirectories: true)
        // gitolite makes its repositories with `git init`, in the hosting home: on main.
        try "[init]\n\tdefaultBranch = main\n".write(toFile: base + "/.gitconfig", atomically: false, encoding: .utf8)
        let users =
            ["admin"] + owners + readers.keys.sorted()
            + Set(content.flatMap(\.authors)).subtracting(owners + readers.keys).sorted()
        for user in users {
            try SSHDaemon.makeKey(keys + "/" + user, comment: user)
        }
        try Self.gitolite(["setup", "-pk", keys + "/admin.pub"], home: base)

        // Repository hooks need LOCAL_CODE and the repo-specific-hooks feature, both
        // commented out in the rc file gitolite writes.
        let rcFile = base + "/.gitolite.rc"
        let rc = try String(contentsOfFile: rcFile, encoding: .utf8)
        let enabled =
            rc
            .replacingOccurrences(
                of: "# LOCAL_CODE                =>  \"$rc{GL_ADMIN_BASE}/local\",",
                with: "LOCAL_CODE                =>  \"$rc{GL_ADMIN_BASE}/local\","
            )
            .replacingOccurrences(of: "# 'repo-specific-hooks',", with: "'repo-specific-hooks',")
        guard enabled.contains("\n        LOCAL_CODE "), enabled.contains("\n            'repo-specific-hooks',") else {
            throw SetupError(description: "GitoliteServer: cannot enable LOCAL_CODE and repo-specific-hooks in \(rcFile)")
        }
        try enabled.write(toFile: rcFile, atomically: false, encoding: .utf8)
        let hooks = base + "/.gitolite/local/hooks/repo-specific"
        try files.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        try "#!/bin/sh\nexec '\(cairn)' hook pre-receive\n".write(toFile: hooks + "/cairn", atomically: false, encoding: .utf8)
        chmod(hooks + "/cairn", 0o755)

        for user in users where user != "admin" {
            try files.copyItem(atPath: keys + "/\(user).pub", toPath: base + "/.gitolite/keydir/\(user).pub")
        }
        var conf = "repo gitolite-admin\n    RW+ = admin\n"
        for owner in owners {
            let readersOf = readers.filter { $0.value.contains(owner) }.keys.sorted()
            conf += "\nrepo \(owner)\n    RW = \(owner)\n"
            if !readersOf.isEmpty { conf += "    R = \(readersOf.joined(separator: " "))\n" }
            conf += "    option hook.pre-receive = cairn\n"
        }
        for collection in content {
            let made = try runBounded(
                cairn,
                ["server", "content", "init", base + "/repositories", collection.collection]
                    + collection.items + ["--schema", collection.schema] + collection.authors.flatMap { ["--author", $0] })
            guard made.status == 0 else {
                throw SetupError(description: "GitoliteServer: cairn server content init failed: \(made.stderr)")
            }
            conf += collection.configuration
        }
        try conf.write(toFile: base + "/.gitolite/conf/gitolite.conf", atomically: false, encoding: .utf8)
        // Compiles the configuration, creates the repositories, writes authorized_keys and
        // links the hooks.
        try Self.gitolite(["setup"], home: base)
        for owner in owners where !files.fileExists(atPath: base + "/repositories/\(owner).git/hooks/pre-receive.h00-cairn") {
            throw SetupError(description: "GitoliteServer: gitolite did not install Cairn's hook in \(owner).git")
        }
        for collection in content {
            for item in collection.items
            where !files.fileExists(atPath: base + "/repositories/content/\(collection.collection)/\(item).git/hooks/pre-receive.h00-cairn")
            {
                throw SetupError(
                    description: "GitoliteServer: gitolite did not install Cairn's hook in content/\(collection.collection)/\(item).git")
            }
        }

        daemon = try SSHDaemon(
            folder: folder.path,
            settings: """
                AuthorizedKeysFile \(base)/.ssh/authorized_keys
                SetEnv HOME=\(base)

                """ + SSHDaemon.publicKeysOnly)
        self.base = base
        self.folder = folder
    }

    deinit {
        stop()
    }

    /// The private key of `user` (no passphrase; `.pub` beside it).
    public func key(_ user: String) -> String {
        folder.path + "/keys/" + user
    }

    /// The bare repository of `name` on the server.
    public func repository(_ name: String) -> String {
        base + "/repositories/\(name).git"
    }

    /// The server's `main` of `name` resolved with `suffix` ("" when it has none).
    public func main(of name: String, _ suffix: String = "") throws -> String {
        try runProcess("/usr/bin/git", ["--git-dir", repository(name), "rev-parse", "--verify", "-q", "refs/heads/main" + suffix])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new client home whose `~/.ssh/known_hosts` lists the server's host key, with
    /// `config` as its `~/.ssh/config` when given, and the files of `keys` (user → file name)
    /// copied into `~/.ssh`.
    public func makeHome(_ name: String, config: String? = nil, keys: [String: String] = [:]) throws -> String {
        let home = folder.path + "/homes/" + name
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try knownHostsLine.write(toFile: home + "/.ssh/known_hosts", atomically: false, encoding: .utf8)
        if let config {
            try config.write(toFile: home + "/.ssh/config", atomically: false, encoding: .utf8)
        }
        for (user, file) in keys {
            try FileManager.default.copyItem(atPath: key(user), toPath: home + "/.ssh/" + file)
            try FileManager.default.copyItem(atPath: key(user) + ".pub", toPath: home + "/.ssh/" + file + ".pub")
        }
        return home
    }

    /// Stops sshd by its PID. Idempotent; also called from deinit.
    public func stop() {
        daemon.stop()
    }

    /// What sshd logged (for test failure messages).
    public var log: String {
        daemon.log
    }

    private static func gitolite(_ arguments: [String], home: String) throws {
        let result = try runBounded(gitolite, arguments, environment: ["HOME": home])
        guard result.status == 0 else {
            throw SetupError(
                description:
                    "GitoliteServer: gitolite \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.stderr)")
        }
    }
}
