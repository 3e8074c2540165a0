import CairnToolTestSupport
import Testing

@testable import CairnCore

/// The header lines the LFS client hands libcurl: as a server gave them, one per name (a
/// name given again replaces the value, as HTTP names compare without case), an empty value
/// kept, and a value that would break the request refused.
@Suite(.historiesVerified) struct HTTPRequestHeadersTests {
    func lines(_ headers: [(String, String)]) -> Result<[String], HTTPRequest.Failure> {
        var request = HTTPRequest(method: "PUT", url: "https://lfs.example.com/o/1", timeout: 30)
        request.headers = headers.map { (name: $0.0, value: $0.1) }
        return request.headerLines()
    }

    @Test func aNameGivenAgainReplacesItsValueInPlace() throws {
        let result = try lines([
            ("Authorization", "Basic a"), ("Content-Type", "application/octet-stream"),
            ("content-type", "application/vnd.git-lfs+json"), ("X-Empty", ""),
        ]).get()
        #expect(result == ["Authorization: Basic a", "content-type: application/vnd.git-lfs+json", "X-Empty;"])
    }

    @Test func aLineBreakInAValueOrABadNameIsRefusedNotSent() {
        for headers in [[("X-Sig", "a\r\nHost: evil")], [("X Sig", "a")], [("", "a")], [("X:Sig", "a")]] {
            guard case .failure(let failure) = lines(headers) else {
                Issue.record("\(headers) was accepted")
                continue
            }
            #expect(failure.kind == .unavailable)
        }
    }
}
