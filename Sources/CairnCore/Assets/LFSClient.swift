import CairnMerge
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of a Git LFS server's batch API and basic transfers
/// (https://github.com/git-lfs/git-lfs/blob/main/docs/api/batch.md), over HTTP with the
/// remote's basic-auth credentials, sent with every request: it asks which objects the server
/// lacks and uploads them, or asks where objects are and downloads them.
///
/// Every request is bounded by `timeout` seconds; a failure is one ``CairnError`` line that
/// names the server and the object.
struct LFSClient {
    /// The LFS endpoint: `<remote>.git/info/lfs`, as git-lfs derives it.
    let endpoint: String
    let credentials: Credentials?
    let timeout: Double

    /// What the server said of one object of a batch.
    enum Answer {
        /// The server has it (an upload) or nothing is to be done.
        case present
        /// A transfer to make: the URL, and the headers to send with it.
        case transfer(href: String, headers: [String: String], verify: (href: String, headers: [String: String])?)
        /// The server refused or lacks the object: its code (404: not found) and message.
        case failed(code: Int, message: String)
    }

    /// The endpoint of `remote` (an HTTP remote): `lfs.url` of the store's git config when it
    /// is set, else `<remote>/info/lfs` (with `.git` added when the URL lacks it).
    static func endpoint(of remote: RemoteURL, configured: String?) -> String {
        if let configured, !configured.isEmpty { return configured.hasSuffix("/") ? String(configured.dropLast()) : configured }
        var url = remote.connectionURL
        while url.hasSuffix("/") { url.removeLast() }
        return url + (url.hasSuffix(".git") ? "" : ".git") + "/info/lfs"
    }

    /// Asks the server about `objects` for `operation` ("upload" or "download").
    func batch(_ operation: String, _ objects: [AssetReference]) throws(CairnError) -> [String: Answer] {
        let body: [String: Any] = [
            "operation": operation, "transfers": ["basic"], "hash_algo": "sha256",
            "objects": objects.map { ["oid": $0.oid, "size": $0.size] as [String: Any] },
        ]
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: body)
        } catch {
            throw CairnError(.invalidInput, "cannot write the LFS batch request: \(error)")
        }
        var request = self.request(endpoint + "/objects/batch", method: "POST")
        request.setValue("application/vnd.git-lfs+json", forHTTPHeaderField: "Accept")
        request.setValue("application/vnd.git-lfs+json", forHTTPHeaderField: "Content-Type")
        request.httpBody = data
        let (status, answer) = try send(request, what: "the LFS batch request to \(endpoint)")
        guard status != 404 else {
            throw CairnError(.notFound, "\(endpoint) is not a Git LFS server (HTTP 404): assets need one beside the git remote (or set the store's lfs.url to it)")
        }
        guard status == 200 else {
            throw failure(status: status, body: answer, doing: "the LFS batch request to \(endpoint)")
        }
        guard let decoded = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
              let listed = decoded["objects"] as? [[String: Any]] else {
            throw CairnError(.network, "\(endpoint) answered the LFS batch request with something that is not a batch answer")
        }
        var answers: [String: Answer] = [:]
        for object in listed {
            guard let oid = object["oid"] as? String else { continue }
            if let error = object["error"] as? [String: Any] {
                answers[oid] = .failed(code: error["code"] as? Int ?? 0, message: error["message"] as? String ?? "")
                continue
            }
            let actions = object["actions"] as? [String: Any] ?? [:]
            guard let action = actions[operation] as? [String: Any], let href = action["href"] as? String else {
                answers[oid] = .present
                continue
            }
            let verify = (actions["verify"] as? [String: Any]).flatMap { verify in
                (verify["href"] as? String).map { (href: $0, headers: verify["header"] as? [String: String] ?? [:]) }
            }
            answers[oid] = .transfer(href: href, headers: action["header"] as? [String: String] ?? [:], verify: verify)
        }
        return answers
    }

    /// Uploads the file at `file` as `object` to `href`, then asks the server to verify it.
    func upload(_ file: String, as object: AssetReference, to href: String, headers: [String: String],
                verify: (href: String, headers: [String: String])?) throws(CairnError) {
        var request = self.request(href, method: "PUT", headers: headers)
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (status, answer) = try send(request, uploading: file, what: "the upload of asset \(object.oid) to \(endpoint)")
        guard (200..<300).contains(status) else {
            throw failure(status: status, body: answer, doing: "the upload of asset \(object.oid) to \(endpoint)")
        }
        guard let verify else { return }
        var check = self.request(verify.href, method: "POST", headers: verify.headers)
        check.setValue("application/vnd.git-lfs+json", forHTTPHeaderField: "Content-Type")
        check.setValue("application/vnd.git-lfs+json", forHTTPHeaderField: "Accept")
        check.httpBody = Data(#"{"oid":"\#(object.oid)","size":\#(object.size)}"#.utf8)
        let (verified, reply) = try send(check, what: "the check of asset \(object.oid) on \(endpoint)")
        guard (200..<300).contains(verified) else {
            throw failure(status: verified, body: reply, doing: "the check of asset \(object.oid) on \(endpoint)")
        }
    }

    /// Downloads `object` from `href` into the file `target` (created).
    func download(_ object: AssetReference, from href: String, headers: [String: String], to target: String) throws(CairnError) {
        let request = self.request(href, method: "GET", headers: headers)
        let (status, answer) = try send(request, what: "the download of asset \(object.oid) from \(endpoint)")
        guard status == 200 else {
            throw failure(status: status, body: answer, doing: "the download of asset \(object.oid) from \(endpoint)")
        }
        try FileSystem.write(Array(answer), to: target)
    }

    /// A request to `url` with the timeout, and the remote's credentials when `url` is on the
    /// LFS endpoint's own origin and `headers` bring no authorization of their own: a transfer
    /// URL elsewhere (object storage, signed) never sees the git password.
    private func request(_ url: String, method: String, headers: [String: String] = [:]) -> URLRequest {
        let target = URL(string: url) ?? URL(fileURLWithPath: "/")
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        if let credentials, Self.origin(of: target) == URL(string: endpoint).map(Self.origin),
           !headers.keys.contains(where: { $0.lowercased() == "authorization" }) {
            let token = Data("\(credentials.username):\(credentials.password)".utf8).base64EncodedString()
            request.setValue("Basic " + token, forHTTPHeaderField: "Authorization")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// The scheme, host and port of `url`, lowercased: what decides whether the credentials
    /// go with a request.
    static func origin(of url: URL) -> String {
        let scheme = (url.scheme ?? "").lowercased()
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\((url.host ?? "").lowercased()):\(port)"
    }

    /// The error of an answer that is not a success.
    private func failure(status: Int, body: Data, doing what: String) -> CairnError {
        let message = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["message"] as? String
        let said = message.map { ": \($0)" } ?? ""
        switch status {
        case 401, 403:
            return CairnError(.authentication, "\(endpoint) refused \(what) (HTTP \(status))\(said); check the user name and password of the remote")
        case 413:
            return CairnError(.refused, "\(endpoint) refused \(what) as too large (HTTP 413)\(said)")
        default:
            return CairnError(.network, "\(endpoint) answered \(what) with HTTP \(status)\(said); try again later")
        }
    }

    /// Sends `request` (with the file `uploading` as its body) and waits for the answer: at
    /// most the timeout without a byte going either way (URLSession's own bound), however
    /// long the whole transfer.
    ///
    /// A server that refuses the credentials answers 401 with a challenge, which URLSession
    /// on Linux would wait on forever without a delegate: ``Outcome`` turns it down and keeps
    /// the 401, which becomes the usual line about the user name and password.
    private func send(_ request: URLRequest, uploading file: String? = nil, what: String) throws(CairnError) -> (Int, Data) {
        let outcome = Outcome()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration, delegate: outcome, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let done: @Sendable (Data?, URLResponse?, Error?) -> Void = { data, response, error in
            outcome.finish(status: (response as? HTTPURLResponse)?.statusCode, data: data, error: error)
        }
        let task = file.map { session.uploadTask(with: request, fromFile: URL(fileURLWithPath: $0), completionHandler: done) }
            ?? session.dataTask(with: request, completionHandler: done)
        task.resume()
        outcome.wait()
        let (status, data, error) = outcome.result
        guard let status else {
            throw CairnError(.network, "\(what) failed: \(error.map { "\($0.localizedDescription)" } ?? "no answer"); try again when the server is reachable")
        }
        return (status, data ?? Data())
    }

    /// The answer of one request, handed from URLSession's queue to the waiting caller; as the
    /// session's delegate, it declines every authentication challenge and keeps its status.
    private final class Outcome: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private let done = DispatchSemaphore(value: 0)
        private var stored: (Int?, Data?, Error?) = (nil, nil, nil)
        private var challenged: Int?

        func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
            let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
            lock.withLock { challenged = status }
            completionHandler(.rejectProtectionSpace, nil)
        }

        func finish(status: Int?, data: Data?, error: Error?) {
            lock.withLock {
                stored = (status ?? challenged, status == nil ? nil : data, error)
            }
            done.signal()
        }

        func wait() {
            done.wait()
        }

        var result: (Int?, Data?, Error?) {
            lock.withLock { stored }
        }
    }
}
