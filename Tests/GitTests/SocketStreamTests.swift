import CairnTestSupport
import Foundation
import Git
import Testing

/// libgit2's TCP connections go through Cairn's stream: a host that does not answer the
/// connection, or a server that accepts it and then says nothing, ends the call with a
/// network failure naming the host and the timeout, instead of waiting forever.
@Suite struct SocketStreamTests {
    let temporary = TemporaryFolder("cairn-socket")

    /// What `git_remote_connect` on `url`, with a timeout of 0.2 s, failed with.
    func failure(connecting url: String) throws -> GitError? {
        let repository = try Repository.create(at: temporary.path + "/r", initialBranch: "main")
        let remote = try Remote(repository: repository, url: url)
        remote.timeout = 0.2
        do {
            _ = try remote.references()
            return nil
        } catch {
            return error
        }
    }

    @Test func anUnansweredConnectionTimesOut() throws {
        let silent = try UnansweringListener()
        let error = try #require(try failure(connecting: "http://127.0.0.1:\(silent.port)/u1.git"))
        #expect(error.isNetworkFailure, "\(error)")
        #expect(error.message == "cannot connect to 127.0.0.1 port \(silent.port): no answer within 0.2 s", "\(error)")
    }

    @Test func aServerThatSaysNothingTimesOut() throws {
        let silent = try UnansweringListener(connecting: true)
        let error = try #require(try failure(connecting: "http://127.0.0.1:\(silent.port)/u1.git"))
        #expect(error.isNetworkFailure, "\(error)")
        #expect(error.message == "no data from 127.0.0.1 for 0.2 s", "\(error)")
    }

    @Test func aRefusedConnectionIsANetworkFailure() throws {
        let port = try Loopback.freePort()
        let error = try #require(try failure(connecting: "http://127.0.0.1:\(port)/u1.git"))
        #expect(error.isNetworkFailure, "\(error)")
        #expect(error.message == "cannot connect to 127.0.0.1 port \(port): Connection refused", "\(error)")
    }
}
