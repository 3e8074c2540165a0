import CairnMerge

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A client of a Git LFS server's batch API and basic transfers
/// (https://github.com/git-lfs/git-lfs/blob/main/docs/api/batch.md), over HTTP with the
/// remote's basic-auth credentials, sent with every request: it asks which objects the server
/// lacks and uploads them, or asks where objects are and downloads them. Requests are made
/// with libcurl (``HTTPRequest``).
///
/// Every request is bounded by `timeout` seconds without a byte going either way; a failure is one ``CairnError`` line that
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
        let body: JSONValue = .object([
            "operation": .string(operation), "transfers": .array([.string("basic")]), "hash_algo": .string("sha256"),
            "objects": .array(objects.map { .object(["oid": .string($0.oid), "size": .integer(Int64($0.size))]) }),
        ])
        var request = self.request(endpoint + "/objects/batch", method: "POST")
        request.headers += [("Accept", "application/vnd.git-lfs+json"), ("Content-Type", "application/vnd.git-lfs+json")]
        request.body = body.canonicalBytes()
        let (status, answer) = try send(request, what: "the LFS batch request to \(endpoint)")
        guard status != 404 else {
            throw CairnError(
                .notFound,
                "\(endpoint) is not a Git LFS server (HTTP 404): assets need one beside the git remote (or set the store's lfs.url to it)")
        }
        guard status == 200 else {
            throw failure(status: status, body: answer, doing: "the LFS batch request to \(endpoint)")
        }
        guard let answers = Self.answers(parsing: answer, for: operation) else {
            throw CairnError(.network, "\(endpoint) answered the LFS batch request with something that is not a batch answer")
        }
        return answers
    }

    /// What a batch answer says of each object it lists, by oid; nil when the bytes are not a
    /// batch answer. An answer may be any size (a server lists every object asked for, with
    /// its headers). An object fails only with an `error` object; `"error": null` is none.
    static func answers(parsing answer: [UInt8], for operation: String) -> [String: Answer]? {
        guard case .array(let listed)? = (try? answerParser.parse(answer))?.field("objects") else { return nil }
        var answers: [String: Answer] = [:]
        for object in listed {
            guard case .string(let oid)? = object.field("oid") else { continue }
            if let error = object.field("error")?.objectValue {
                answers[oid] = .failed(code: integer(error["code"]) ?? 0, message: string(error["message"]) ?? "")
                continue
            }
            let actions = object.field("actions")
            guard let action = actions?.field(operation), let href = string(action.field("href")) else {
                answers[oid] = .present
                continue
            }
            let verify = actions?.field("verify").flatMap { verify in
                string(verify.field("href")).map { (href: $0, headers: headers(verify.field("header"))) }
            }
            answers[oid] = .transfer(href: href, headers: headers(action.field("header")), verify: verify)
        }
        return answers
    }

    /// Uploads the file at `file` as `object` to `href`, then asks the server to verify it.
    func upload(
        _ file: String, as object: AssetReference, to href: String, headers: [String: String],
        verify: (href: String, headers: [String: String])?
    ) throws(CairnError) {
        var request = self.request(href, method: "PUT", headers: headers)
        request.headers.append(("Content-Type", "application/octet-stream"))
        request.uploading = file
        let (status, answer) = try send(request, what: "the upload of asset \(object.oid) to \(endpoint)")
        guard (200..<300).contains(status) else {
            throw failure(status: status, body: answer, doing: "the upload of asset \(object.oid) to \(endpoint)")
        }
        guard let verify else { return }
        var check = self.request(verify.href, method: "POST", headers: verify.headers)
        check.headers += [("Content-Type", "application/vnd.git-lfs+json"), ("Accept", "application/vnd.git-lfs+json")]
        check.body = Array(#"{"oid":"\#(object.oid)","size":\#(object.size)}"#.utf8)
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
        try FileSystem.write(answer, to: target)
    }

    /// A request to `url` with the timeout, and the remote's credentials when `url` is on the
    /// LFS endpoint's own origin and `headers` bring no authorization of their own: a transfer
    /// URL elsewhere (object storage, signed) never sees the git password.
    private func request(_ url: String, method: String, headers: [String: String] = [:]) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: url, timeout: timeout)
        if let credentials, let target = URL(string: url), Self.origin(of: target) == URL(string: endpoint).map(Self.origin),
            !headers.keys.contains(where: { $0.lowercased() == "authorization" })
        {
            let token = Data("\(credentials.username):\(credentials.password)".utf8).base64EncodedString()
            request.headers.append(("Authorization", "Basic " + token))
        }
        request.headers += headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return request
    }

    /// The scheme, host and port of `url`, lowercased: what decides whether the credentials
    /// go with a request.
    static func origin(of url: URL) -> String {
        let scheme = (url.scheme ?? "").lowercased()
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\((url.host ?? "").lowercased()):\(port)"
    }

    /// The parser of the server's answers: strict JSON, without a document's 1 MiB bound (a
    /// batch of a thousand assets, each with a signed URL and its headers, passes it).
    private static var answerParser: JSONParser { JSONParser(limits: JSONLimits(maxBytes: Int.max, maxDepth: 128)) }

    /// A string of an answer, nil for none or another type.
    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// A whole number of an answer (`404` or `404.0`), nil for none or another type.
    private static func integer(_ value: JSONValue?) -> Int? {
        switch value {
        case .integer(let number)?: Int(exactly: number)
        case .double(let number)?: Int(exactly: number)
        default: nil
        }
    }

    /// The headers of an answer's action: its string fields.
    private static func headers(_ value: JSONValue?) -> [String: String] {
        guard let fields = value?.objectValue else { return [:] }
        var headers: [String: String] = [:]
        for (name, field) in fields {
            if let text = string(field) { headers[name] = text }
        }
        return headers
    }

    /// The error of an answer that is not a success.
    private func failure(status: Int, body: [UInt8], doing what: String) -> CairnError {
        let message = Self.string((try? Self.answerParser.parse(body))?.field("message"))
        let said = message.map { ": \($0)" } ?? ""
        switch status {
        case 401, 403:
            return CairnError(
                .authentication, "\(endpoint) refused \(what) (HTTP \(status))\(said); check the user name and password of the remote")
        case 413:
            return CairnError(.refused, "\(endpoint) refused \(what) as too large (HTTP 413)\(said)")
        default:
            return CairnError(.network, "\(endpoint) answered \(what) with HTTP \(status)\(said); try again later")
        }
    }

    /// Sends `request` and waits for the whole answer.
    private func send(_ request: HTTPRequest, what: String) throws(CairnError) -> (Int, [UInt8]) {
        switch request.send() {
        case .success(let answer):
            return answer
        case .failure(let failure):
            switch failure.kind {
            case .transfer: throw CairnError(.network, "\(what) failed: \(failure.reason); try again when the server is reachable")
            case .certificateNotTrusted: throw .certificateNotTrusted("\(what) failed", reason: failure.reason)
            case .unavailable: throw CairnError(.notFound, "\(what) cannot be made: \(failure.reason)")
            case .unreadableFile: throw CairnError(.io, "\(what) cannot be made: \(failure.reason)")
            }
        }
    }
}
