import CairnCore

/// A shard's administration endpoints (`cairn server run --admin-secret-file`), as the
/// rebalance calls them, over HTTP with the operator's secret.
struct ShardAdminClient: Sendable {
    let name: String
    /// `http://HOST:PORT` of the shard's metrics address.
    let url: String
    let secret: String

    func call(
        _ method: String, _ path: String, body: [UInt8]? = nil, headers: [(name: String, value: String)] = [],
        expecting: Set<Int> = [200], timeout: Double = 120
    ) throws(BackupError) -> (status: Int, body: [UInt8]) {
        let request = HTTPRequest(
            method: method, url: url + path, headers: [("Authorization", "Bearer " + secret)] + headers,
            body: body, timeout: timeout)
        switch request.send() {
        case .success(let answer) where expecting.contains(answer.status):
            return answer
        case .success(let answer):
            let said = String(decoding: answer.body, as: UTF8.self).trimmingWhitespace()
            throw BackupError("shard \(name) answered \(method) \(path) with \(answer.status): \(said)")
        case .failure(let failure):
            throw BackupError("shard \(name) (\(url)) cannot be reached: \(failure.reason)")
        }
    }

    func text(_ method: String, _ path: String, body: String? = nil) throws(BackupError) -> String {
        String(decoding: try call(method, path, body: body.map { Array($0.utf8) }).body, as: UTF8.self)
    }

    /// Each user here, with their bucket.
    func users() throws(BackupError) -> [(uid: String, bucket: Int)] {
        try text("GET", "/admin/users").split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let bucket = Int(parts[1]) else { return nil }
            return (String(parts[0]), bucket)
        }
    }

    func setBuckets(_ buckets: BucketSet) throws(BackupError) {
        _ = try text("PUT", "/admin/buckets", body: buckets.description)
    }

    /// Pushes held, then the bundle (nil: no commit yet) and the refs.
    func export(_ uid: String) throws(BackupError) -> (bundle: [UInt8]?, refs: [String: String]) {
        let answer = try call("POST", "/admin/users/\(uid)/export", expecting: [200, 204])
        let refs = UserTransfer.refs(try text("GET", "/admin/users/\(uid)/refs"))
        return (answer.status == 204 ? nil : answer.body, refs)
    }

    func importRepository(_ uid: String, bundle: [UInt8]?, refs: [String: String]) throws(BackupError) {
        let header = refs.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ",")
        _ = try call("PUT", "/admin/users/\(uid)", body: bundle ?? [], headers: [("X-Cairn-Refs", header)])
    }

    func release(_ uid: String) throws(BackupError) {
        _ = try call("POST", "/admin/users/\(uid)/release")
    }

    func retire(_ uid: String, movedTo shard: String) throws(BackupError) {
        _ = try call("POST", "/admin/users/\(uid)/retire?to=\(shard)")
    }
}
