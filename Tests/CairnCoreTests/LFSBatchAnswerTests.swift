import CairnMerge
import CairnToolTestSupport
import Testing

@testable import CairnCore

/// What Cairn reads from a Git LFS server's batch answer, as servers write it: `"error": null`
/// beside the actions (some servers list every field of every object), and answers far over
/// the 1 MiB a stored document may have (one object per asset asked for, each with its
/// headers).
@Suite(.historiesVerified) struct LFSBatchAnswerTests {
    static let oid = String(repeating: "ab", count: 32)

    func object(_ oid: String, _ fields: String) -> String {
        #"{"oid":"\#(oid)","size":5,\#(fields)}"#
    }

    func read(_ objects: [String], for operation: String = "upload") -> [String: LFSClient.Answer]? {
        LFSClient.answers(parsing: Array(#"{"transfer":"basic","objects":[\#(objects.joined(separator: ","))]}"#.utf8), for: operation)
    }

    @Test func aNullErrorIsNoError() throws {
        let answers = try #require(
            read([
                object(
                    Self.oid,
                    #""error":null,"actions":{"upload":{"href":"http://127.0.0.1/o","header":{"X-Token":"t"}},"verify":{"href":"http://127.0.0.1/v"}}"#
                )
            ]))
        guard case .transfer(let href, let headers, let verify)? = answers[Self.oid] else {
            Issue.record("read as \(String(describing: answers[Self.oid]))")
            return
        }
        #expect(href == "http://127.0.0.1/o")
        #expect(headers == ["X-Token": "t"])
        #expect(verify?.href == "http://127.0.0.1/v")

        let present = try #require(read([object(Self.oid, #""error":null"#)]))
        guard case .present? = present[Self.oid] else {
            Issue.record("read as \(String(describing: present[Self.oid]))")
            return
        }
    }

    @Test func anErrorObjectFailsTheObject() throws {
        let answers = try #require(read([object(Self.oid, #""error":{"code":404,"message":"Object does not exist"}"#)], for: "download"))
        guard case .failed(let code, let message)? = answers[Self.oid] else {
            Issue.record("read as \(String(describing: answers[Self.oid]))")
            return
        }
        #expect(code == 404)
        #expect(message == "Object does not exist")
    }

    @Test func anAnswerOverOneMebibyteIsReadWhole() throws {
        // 4,000 objects with a 400-byte header each: about 2 MiB.
        let token = String(repeating: "t", count: 400)
        let oids = (0..<4_000).map { String(repeating: "0", count: 64 - String($0).count) + String($0) }
        let objects = oids.map {
            object($0, #""actions":{"download":{"href":"http://127.0.0.1/\#($0)","header":{"Authorization":"\#(token)"}}}"#)
        }
        let size = objects.joined().utf8.count
        #expect(size > 1 << 20)
        // Read outside the expectation, which would otherwise print 2 MiB when it fails.
        let parsed = read(objects, for: "download")
        let answered = parsed != nil
        try #require(answered, "an answer of \(size) bytes was not read")
        let answers = parsed!
        #expect(answers.count == oids.count)
        guard case .transfer(let href, let headers, _)? = answers[oids.last!] else {
            Issue.record("the last object read as \(String(describing: answers[oids.last!]))")
            return
        }
        #expect(href == "http://127.0.0.1/\(oids.last!)")
        #expect(headers["Authorization"]?.count == 400)
    }

    @Test func somethingElseIsNoBatchAnswer() {
        #expect(LFSClient.answers(parsing: Array(#"{"message":"hello"}"#.utf8), for: "upload") == nil)
        #expect(LFSClient.answers(parsing: Array("<html>".utf8), for: "upload") == nil)
    }
}
