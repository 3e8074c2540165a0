import CairnTestSupport
import Foundation
import Git
import Testing

/// Where a connection goes and which key files it names, decided from a home's
/// `~/.ssh/config` (its includes, `HostName`, `%` tokens), the remote's address and the ssh
/// command git would run — each taking its turn as ssh gives it.
@Suite struct SSHAccessTests {
    let folder = TemporaryFolder("cairn-ssh-access")
    var home: String { folder.path + "/home" }

    init() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/home/.ssh/config.d", withIntermediateDirectories: true)
    }

    func environment(command: String? = nil) -> SSHEnvironment {
        var environment = SSHEnvironment(home: home, localUser: "me", agentSocket: nil, command: command)
        environment.systemConfig = folder.path + "/ssh_config"
        return environment
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func host(_ address: String, command: String? = nil) throws -> SSHHost {
        try SSHAccess.host(for: #require(SSHAddress(address)), in: environment(command: command))
    }

    @Test func anAliasResolvesToItsHostUserPortAndKeys() throws {
        try write(
            """
            Include config.d/*
            Host progress
                HostName %h.example.com
                IdentityFile ~/.ssh/id_%r@%h
                IdentityFile %d/.ssh/shared_%u_%p
                IdentitiesOnly yes
            """, to: home + "/.ssh/config")
        try write("Host progress\n    User u1\n    Port 2222\n", to: home + "/.ssh/config.d/progress")
        try write("Host *\n    User system\n    IdentityFile /etc/ssh/not-read-before-the-user\n", to: folder.path + "/ssh_config")
        let progress = try host("progress:u1")
        #expect(progress.hostName == "progress.example.com")
        #expect(progress.user == "u1")
        #expect(progress.port == 2222)
        #expect(progress.identitiesOnly == true)
        #expect(
            progress.identityFiles == [
                home + "/.ssh/id_u1@progress.example.com", home + "/.ssh/shared_me_2222",
                "/etc/ssh/not-read-before-the-user",
            ])
        let plain = try host("ssh://git.example.com/srv/u1.git")
        #expect(plain.hostName == "git.example.com")
        #expect(plain.user == "system")
        #expect(plain.port == 22)
        #expect(plain.identitiesOnly == false)
        #expect(plain.identityFiles == ["/etc/ssh/not-read-before-the-user"])
    }

    @Test func withoutIdentityFileSSHsDefaultKeysAreNamed() throws {
        let plain = try host("git@host:u1")
        #expect(plain.user == "git")
        #expect(
            plain.identityFiles
                == ["id_rsa", "id_ecdsa", "id_ecdsa_sk", "id_ed25519", "id_ed25519_sk", "id_xmss", "id_dsa"]
                .map { home + "/.ssh/" + $0 })
    }

    /// The address's user comes before the configuration's; its port after the ssh command's
    /// (git passes it last, with -p); the command's options before the configuration's.
    @Test func theCommandLineAndTheAddressComeFirst() throws {
        try write("Host progress\n    User fromConfig\n    Port 2200\n    IdentityFile ~/.ssh/config_key\n", to: home + "/.ssh/config")
        #expect(try host("someone@progress:u1").user == "someone")
        #expect(try host("ssh://progress:2022/u1").port == 2022)
        let commanded = try host("progress:u1", command: "ssh -i ~/.ssh/command_key -o IdentitiesOnly=yes -l fromCommand -p 2300")
        #expect(commanded.user == "fromCommand")
        #expect(commanded.port == 2300)
        #expect(commanded.identitiesOnly == true)
        #expect(commanded.identityFiles == [home + "/.ssh/command_key", home + "/.ssh/config_key"])
        #expect(try host("ssh://progress:2022/u1", command: "ssh -p 2300").port == 2022)
        // -F replaces ~/.ssh/config (and the system's file).
        try write("Host progress\n    User fromF\n", to: folder.path + "/other_config")
        #expect(try host("progress:u1", command: "ssh -F \(folder.path)/other_config").user == "fromF")
        #expect(throws: SSHConfigError("cannot read the ssh configuration /nowhere named by -F")) {
            try host("progress:u1", command: "ssh -F /nowhere")
        }
    }

    @Test func aTokenCairnDoesNotExpandIsNamed() throws {
        try write("IdentityFile ~/.ssh/%C\n", to: home + "/.ssh/config")
        #expect(
            throws: SSHConfigError(
                "IdentityFile ~/.ssh/%C: Cairn does not expand %C (it expands %d, %h, %l, %L, %n, %p, %r, %u, %i and %%)")
        ) {
            try host("progress:u1")
        }
    }

    @Test func addressesAreReadAsGitReadsThem() throws {
        let cases: [(String, String?, String, Int?, String, Bool)] = [
            ("ssh://git@host:2222/srv/u1.git", "git", "host", 2222, "/srv/u1.git", true),
            ("ssh://host/~/u1.git", nil, "host", nil, "/~/u1.git", true),
            ("git+ssh://a%40b@[::1]:22/u1", "a@b", "::1", 22, "/u1", true),
            ("git@host:srv/u1.git", "git", "host", nil, "srv/u1.git", false),
            ("progress:u1", nil, "progress", nil, "u1", false),
        ]
        for (text, user, host, port, path, isURL) in cases {
            let address = try #require(SSHAddress(text), "\(text)")
            #expect(
                address.user == user && address.host == host && address.port == port && address.path == path
                    && address.isURL == isURL, "\(text): \(address)")
        }
        for text in ["/srv/u1.git", "./a:b", "ssh://host", "ssh://host:port/u1", "https://host/u1", ":u1", "host:"] {
            #expect(SSHAddress(text) == nil, "\(text)")
        }
        // What libgit2 is given: the resolved host, user and port; scp's form kept, so its path
        // stays relative to the remote user's home.
        #expect(SSHAddress("progress:u1")?.url(host: "10.0.0.1", user: "git", port: 22) == "git@10.0.0.1:u1")
        #expect(SSHAddress("progress:u1")?.url(host: "10.0.0.1", user: "git", port: 2222) == "[git@10.0.0.1:2222]:u1")
        #expect(SSHAddress("ssh://progress/srv/u1.git")?.url(host: "h", user: "a b", port: 2222) == "ssh://a%20b@h:2222/srv/u1.git")
        #expect(SSHAddress("ssh://progress/u1")?.url(host: "::1", user: "git", port: 22) == "ssh://git@[::1]/u1")
    }

    @Test func sshCommandsAreReadForTheKeyChoiceOnly() throws {
        let line = try SSHCommandLine(
            parsing: #"/usr/bin/ssh -vT -i '/keys/my key' -oIdentitiesOnly=yes -o "User u1" -p2222 -F ~/f"#,
            source: "core.sshCommand")
        var settings = SSHHost()
        try line.options.apply(for: "any", to: &settings)
        #expect(settings.identityFiles == ["/keys/my key"])
        #expect(settings.identitiesOnly == true)
        #expect(settings.user == "u1")
        #expect(settings.port == 2222)
        #expect(line.configFile == "~/f")
        let refused: [(String, String)] = [
            ("plink -i key", "core.sshCommand runs plink: Cairn speaks SSH itself"),
            ("ssh -J jump", "core.sshCommand: ssh's -J is not something Cairn does"),
            ("ssh -i", "core.sshCommand: -i needs a value"),
            ("ssh -i $HOME/key", "core.sshCommand: Cairn runs no shell, so it cannot take $"),
            ("ssh -i \"key", "core.sshCommand: a quote is not closed"),
            ("ssh host", "core.sshCommand: \"host\" is not an ssh option"),
            ("ssh -o 'Host x'", "core.sshCommand: -o Host x is not an option ssh takes on its command line"),
            ("", "core.sshCommand is empty"),
        ]
        for (command, message) in refused {
            #expect(throws: SSHConfigError.self, "\(command)") { try SSHCommandLine(parsing: command, source: "core.sshCommand") }
            do {
                _ = try SSHCommandLine(parsing: command, source: "core.sshCommand")
            } catch {
                #expect(error.description.hasPrefix(message), "\(command): \(error)")
            }
        }
    }
}
