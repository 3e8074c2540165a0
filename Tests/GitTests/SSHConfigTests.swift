import CairnTestSupport
import Foundation
import Git
import Testing

/// `~/.ssh/config` read as ssh reads it: the first value obtained wins, `Host` patterns with
/// `*`, `?` and `!`, `Match` blocks skipped, `IdentityFile` adding up, ssh's quoting and
/// comments, `Include` in place; and what ssh refuses, refused with the file and line.
@Suite struct SSHConfigTests {
    /// What `text` says about `host`.
    func settings(_ text: String, for host: String) throws -> SSHHost {
        var settings = SSHHost()
        try SSHConfig(parsing: text, source: "config").apply(for: host, to: &settings)
        return settings
    }

    @Test func theFirstValueObtainedWins() throws {
        let text = """
            User everyone
            Host progress
                HostName progress.example.com
                User u1
                Port 2222
            Host progress *.example.com
                HostName other.example.com
                Port 22
                IdentitiesOnly yes
            Host *
                IdentitiesOnly no
                Port 2200
            """
        let progress = try settings(text, for: "progress")
        #expect(progress.hostName == "progress.example.com")
        #expect(progress.user == "everyone", "options before any Host hold for every host, and come first")
        #expect(progress.port == 2222)
        #expect(progress.identitiesOnly == true)
        let other = try settings(text, for: "git.example.com")
        #expect(other.hostName == "other.example.com")
        #expect(other.port == 22)
        let unknown = try settings(text, for: "elsewhere")
        #expect(unknown.hostName == nil)
        #expect(unknown.port == 2200)
        #expect(unknown.identitiesOnly == false)
    }

    @Test func hostPatternsMatchAsSSHMatchesThem() throws {
        let text = """
            Host srv? !srv9 *.internal !*.public.internal
                User matched
            """
        for (host, matched) in [
            ("srv1", true), ("SRV2", true), ("srv9", false), ("srv10", false), ("srv", false),
            ("db.internal", true), ("a.b.internal", true), ("www.public.internal", false),
            (".internal", true), ("internal", false),
        ] {
            #expect(try settings(text, for: host).user == (matched ? "matched" : nil), "\(host)")
        }
        // A line of negations alone selects nothing.
        #expect(try settings("Host !srv1\n  User x\n", for: "srv2").user == nil)
        #expect(
            SSHConfigTests.globCases.allSatisfy { pattern, text, expected in
                (try? settings("Host \(pattern)\n User y\n", for: text).user == (expected ? "y" : nil)) ?? false
            })
    }

    /// Patterns against names, for `*` runs in every position.
    static let globCases: [(String, String, Bool)] = [
        ("*", "anything", true), ("a*", "a", true), ("*a", "ba", true), ("*a*", "bab", true),
        ("a*b*c", "aXbYc", true), ("a*b*c", "aXbY", false), ("a**", "abc", true), ("?*", "", false),
        ("a?c", "abc", true), ("a?c", "ac", false), ("*.*.com", "x.y.com", true), ("*.*.com", "x.com", false),
    ]

    @Test func matchBlocksAreSkippedUntilTheNextHost() throws {
        let text = """
            Match host progress exec "true"
                User fromMatch
                IdentityFile ~/.ssh/from-match
            Host progress
                User fromHost
            Match all
                Port 1
            """
        let progress = try settings(text, for: "progress")
        #expect(progress.user == "fromHost")
        #expect(progress.identityFiles.isEmpty)
        #expect(progress.port == nil)
    }

    @Test func identityFilesAddUpInOrderOnce() throws {
        let text = """
            IdentityFile ~/.ssh/first
            Host progress
                IdentityFile ~/.ssh/second
                IdentityFile ~/.ssh/first
            Host *
                IdentityFile ~/.ssh/third
            """
        #expect(try settings(text, for: "progress").identityFiles == ["~/.ssh/first", "~/.ssh/second", "~/.ssh/third"])
        #expect(try settings(text, for: "other").identityFiles == ["~/.ssh/first", "~/.ssh/third"])
    }

    @Test func keywordsArgumentsQuotesAndCommentsAreReadAsSSHReadsThem() throws {
        let text = """
            # a comment
              HOST=progress   # trailing comment
            \tHostName = "progress.example.com"
            IdentityFile "/home/me/my keys/id one"
            IdentityFile /home/me/two\\ words
            identitiesonly=Yes
            Port=2222
            SendEnv LANG LC_*
            """
        let progress = try settings(text, for: "progress")
        #expect(progress.hostName == "progress.example.com")
        #expect(progress.identityFiles == ["/home/me/my keys/id one", "/home/me/two words"])
        #expect(progress.identitiesOnly == true)
        #expect(progress.port == 2222)
    }

    @Test func whatSSHRefusesToReadIsRefusedWithItsLine() {
        let cases: [(String, String)] = [
            ("Host a\n  HostName \"unclosed\n", "config line 2: a quote is not closed"),
            ("Port\n", "config line 1: no argument after Port"),
            ("\n\nPort ssh\n", "config line 3: Port \"ssh\" is not a port number"),
            ("Port 70000\n", "config line 1: Port \"70000\" is not a port number"),
            ("IdentitiesOnly maybe\n", "config line 1: IdentitiesOnly is yes or no, not \"maybe\""),
            ("User a b\n", "config line 1: user takes one value, found 2"),
        ]
        for (text, message) in cases {
            #expect(throws: SSHConfigError(message), "\(text)") { try settings(text, for: "progress") }
        }
    }

    /// `Include` reads files in place, globbed; what they set holds only where the `Include`
    /// line does, and their `Host` lines do not change the including file's block.
    @Test func includedFilesApplyInPlace() throws {
        let folder = TemporaryFolder("cairn-ssh-config")
        try FileManager.default.createDirectory(atPath: folder.path + "/config.d", withIntermediateDirectories: true)
        try "Host progress\n  User included\n".write(toFile: folder.path + "/config.d/10-progress.conf", atomically: false, encoding: .utf8)
        try "Host *\n  IdentityFile ~/.ssh/included\n".write(
            toFile: folder.path + "/config.d/20-all.conf", atomically: false, encoding: .utf8)
        let text = """
            Host other
                Include config.d/*.conf
            Host progress
                Include config.d/*.conf
                Port 2222
            Host *
                User last
            """
        func resolve(_ host: String) throws -> SSHHost {
            var settings = SSHHost()
            try SSHConfig(parsing: text, source: "config").apply(for: host, to: &settings) {
                (pattern: String) throws(SSHConfigError) -> [SSHConfig] in
                let paths = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path + "/config.d")) ?? []).sorted()
                    .filter { pattern == "config.d/*.conf" && $0.hasSuffix(".conf") }
                var configs: [SSHConfig] = []
                for path in paths {
                    let file = folder.path + "/config.d/" + path
                    configs.append(try SSHConfig(parsing: (try? String(contentsOfFile: file, encoding: .utf8)) ?? "", source: file))
                }
                return configs
            }
            return settings
        }
        let progress = try resolve("progress")
        #expect(progress.user == "included")
        #expect(progress.identityFiles == ["~/.ssh/included"])
        #expect(progress.port == 2222, "the Host lines of the included file left the block active")
        let other = try resolve("other")
        #expect(other.user == "last", "the included Host progress did not match other")
        #expect(other.identityFiles == ["~/.ssh/included"])
        #expect(try resolve("third").identityFiles.isEmpty, "an Include in a block that does not hold reads nothing")
    }
}
