import CairnCore
import CairnTestSupport
import CairnToolTestSupport
import Git
import Testing

/// What `init --remote`, `remote set` and `clone` accept, and what they keep.
@Suite(.historiesVerified) struct RemoteURLTests {
    @Test func eachTransportIsRecognized() throws {
        let cases: [(String, RemoteURL.Transport, String)] = [
            ("/srv/cairn/u1.git", .path, "/srv/cairn/u1.git"),
            ("file:///srv/cairn/u1.git", .path, "/srv/cairn/u1.git"),
            ("git://host/u1.git", .git, "git://host/u1.git"),
            ("https://host/git/u1.git", .http, "https://host/git/u1.git"),
            ("HTTP://host:8080/u1.git", .http, "HTTP://host:8080/u1.git"),
            ("ssh://git@host:2222/srv/u1.git", .ssh, "ssh://git@host:2222/srv/u1.git"),
            ("git@host:srv/u1.git", .ssh, "git@host:srv/u1.git"),
            ("progress:u1", .ssh, "progress:u1"),  // a host of ~/.ssh/config, as git reads it
        ]
        for (text, transport, url) in cases {
            let remote = try RemoteURL(text)
            #expect(remote.transport == transport, "\(text)")
            #expect(remote.url == url, "\(text)")
        }
        #expect(try RemoteURL("server/u1.git", relativeTo: "/home/me").url == "/home/me/server/u1.git")
        #expect(try RemoteURL("../server/./u1.git", relativeTo: "/home/me").url == "/home/server/u1.git")
        #expect(try RemoteURL("./a:b/u1.git", relativeTo: "/home/me").url == "/home/me/a:b/u1.git")
    }

    @Test func aPasswordInTheURLIsUsedButNeverKept() throws {
        let remote = try RemoteURL("https://u1:p%40ss%3Aword@host/git/u1.git")
        #expect(remote.url == "https://u1@host/git/u1.git")
        #expect(remote.description == remote.url)
        #expect(remote.username == "u1")
        #expect(remote.password == "p@ss:word")
        #expect(remote.credentials(fallingBackOn: .standard) == Credentials(username: "u1", password: "p@ss:word"))
        let plain = try RemoteURL("https://host/git/u1.git")
        #expect(plain.credentials(fallingBackOn: .standard) == nil)
        #expect(
            plain.credentials(fallingBackOn: Configuration(username: "u1", password: "x")) == Credentials(username: "u1", password: "x"))
        #expect(
            try RemoteURL("https://u1@host/git/u1.git").credentials(fallingBackOn: Configuration(password: "x"))
                == Credentials(username: "u1", password: "x"))
        #expect(try RemoteURL("/srv/u1.git").credentials(fallingBackOn: Configuration(username: "u1", password: "x")) == nil)
    }

    /// An HTTP server hears the user name once, with the password: libgit2 connects to the
    /// URL without it. SSH keeps its user, which chooses the account.
    @Test func theUserNameTravelsWithThePasswordOnly() throws {
        #expect(try RemoteURL("https://u1:p%40ss@host:8443/git/u1.git").connectionURL == "https://host:8443/git/u1.git")
        #expect(try RemoteURL("http://u1@127.0.0.1:8080/git/u1.git").connectionURL == "http://127.0.0.1:8080/git/u1.git")
        #expect(try RemoteURL("https://host/git/u1.git").connectionURL == "https://host/git/u1.git")
        #expect(try RemoteURL("https://host/git/a@b.git").connectionURL == "https://host/git/a@b.git")
        #expect(try RemoteURL("https://u1@host").connectionURL == "https://host")
        #expect(try RemoteURL("ssh://git@host/srv/u1.git").connectionURL == "ssh://git@host/srv/u1.git")
        #expect(try RemoteURL("git@host:u1.git").connectionURL == "git@host:u1.git")
        #expect(try RemoteURL("/srv/u1.git").connectionURL == "/srv/u1.git")
    }

    @Test func theUserOfARemoteIsItsLastPart() throws {
        #expect(try RemoteURL("https://host/git/u1.git").impliedUID == "u1")
        #expect(try RemoteURL("/srv/cairn/u2.git/").impliedUID == "u2")
        #expect(try RemoteURL("git@host:u3.git").impliedUID == "u3")
        #expect(try RemoteURL("git://host/u1.git").isReadOnly)
        #expect(try !RemoteURL("https://host/u1.git").isReadOnly)
    }

    @Test func whatIsNotARemoteIsRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("", "invalid remote"),
            ("ftp://host/u1.git", "unsupported remote"),
            ("file://relative/u1.git", "absolute path"),
            ("https://", "names no host"),
            ("https://u1:pw@/u1.git", "names no host"),
            ("/srv/u1.git\nx", "invalid remote"),
        ]
        for (text, reason) in cases {
            #expect(throws: CairnError.self, "\(String(reflecting: text))") { try RemoteURL(text) }
            do {
                _ = try RemoteURL(text)
            } catch {
                #expect(error.message.contains(reason), "\(String(reflecting: text)): \(error.message)")
                #expect(!error.message.contains("pw"))
            }
        }
    }

    @Test func retrySchedulesParse() throws {
        #expect(try RetrySchedule(parsing: "5,30,300").delays == [5, 30, 300])
        #expect(try RetrySchedule(parsing: " 0.5 , 2 ").delays == [0.5, 2])
        #expect(try RetrySchedule(parsing: "none").delays.isEmpty)
        #expect(try RetrySchedule(parsing: "").delays.isEmpty)
        #expect(RetrySchedule.standard.description == "5,30,300")
        for bad in ["5,,30", "-1", "soon", "1e9"] {
            #expect(throws: CairnError.self, "\(bad)") { try RetrySchedule(parsing: bad) }
        }
    }
}
