import CairnCluster
import CairnCore
import CairnSystem
import Crypto
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The endpoints that move users between shards (`cairn server rebalance` calls them), on the
/// private metrics address, each asking for the operator's secret (`--admin-secret-file`) as
/// `Authorization: Bearer`; without that option they answer 404.
///
/// - `GET /admin/users`: `<uid> <bucket>` a line;
/// - `GET /admin/buckets`, `PUT /admin/buckets`: the buckets whose new users this shard makes
///   repositories for (`0-255,512-767`);
/// - `POST /admin/users/<uid>/export`: pushes held, then the bundle of the whole repository
///   (204 for one with no commit yet), its refs in `X-Cairn-Refs`;
/// - `GET /admin/users/<uid>/refs`: `<object> <ref>` a line;
/// - `POST /admin/users/<uid>/release`: pushes let in again (a move abandoned);
/// - `PUT /admin/users/<uid>`: the repository made from the bundle in the body, with the refs
///   of `X-Cairn-Refs`, audited, then served;
/// - `POST /admin/users/<uid>/retire?to=<shard>`: the repository put aside once its copy serves.
extension FrontServer {
    func addAdministration(to router: Router<BasicRequestContext>) {
        let folder = ShardFolder(options.folder)
        let server = self
        router.get("/admin/users") { request, _ in
            if let refused = server.adminRefusal(request) { return refused }
            return Self.text(200, folder.users().map { "\($0) \(UserBucket.of($0))" }.joined(separator: "\n"))
        }
        router.get("/admin/buckets") { request, _ in
            if let refused = server.adminRefusal(request) { return refused }
            do { return Self.text(200, try folder.ownedBuckets().description) } catch { return Self.text(500, Self.message(of: error)) }
        }
        router.put("/admin/buckets") { request, _ in
            if let refused = server.adminRefusal(request) { return refused }
            var request = request
            let body = String(buffer: try await request.collectBody(upTo: 65_536))
            switch BucketSet.parse(body) {
            case .success(let buckets):
                do { try folder.setOwnedBuckets(buckets) } catch { return Self.text(500, Self.message(of: error)) }
                server.logger.info("buckets", metadata: ["owned": "\(buckets.description)"])
                return Self.text(200, buckets.description)
            case .failure(let error):
                return Self.text(400, error.description)
            }
        }
        router.post("/admin/users/:uid/export") { request, context in
            if let refused = server.adminRefusal(request) { return refused }
            guard let uid = context.parameters.get("uid") else { return Self.text(400, "name a user") }
            let file = server.reports + "/export-" + Self.requestID()
            defer { try? FileManager.default.removeItem(atPath: file) }
            do {
                let refs = try await UserTransfer.export(uid, from: folder, to: file)
                server.logger.info("held for a move", metadata: ["uid": "\(uid)"])
                var headers = HTTPFields()
                headers[Self.refsHeader] = Self.headerValue(refs)
                guard !refs.isEmpty, let bytes = try FileSystem.read(file) else { return Response(status: .noContent, headers: headers) }
                headers[.contentType] = "application/x-git-bundle"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            } catch let error as BackupError {
                return Self.text(409, error.description)
            }
        }
        router.get("/admin/users/:uid/refs") { request, context in
            if let refused = server.adminRefusal(request) { return refused }
            guard let uid = context.parameters.get("uid"), FileSystem.kind(folder.repository(uid)) == .folder else {
                return Self.text(404, "there is no repository of that user here")
            }
            do { return Self.text(200, UserTransfer.text(try await UserTransfer.refs(of: uid, in: folder))) } catch {
                return Self.text(500, "\(error)")
            }
        }
        router.post("/admin/users/:uid/release") { request, context in
            if let refused = server.adminRefusal(request) { return refused }
            guard let uid = context.parameters.get("uid") else { return Self.text(400, "name a user") }
            do { try PushHold.release(folder.repository(uid)) } catch { return Self.text(500, Self.message(of: error)) }
            server.logger.info("released", metadata: ["uid": "\(uid)"])
            return Self.text(200, "pushes of \(uid) let in again")
        }
        router.put("/admin/users/:uid") { request, context in
            if let refused = server.adminRefusal(request) { return refused }
            guard let uid = context.parameters.get("uid") else { return Self.text(400, "name a user") }
            let expected = Self.refs(fromHeader: request.headers[Self.refsHeader] ?? "")
            var request = request
            let body = try await request.collectBody(upTo: server.options.maxBodyBytes)
            let file = server.reports + "/import-" + Self.requestID()
            defer { try? FileManager.default.removeItem(atPath: file) }
            do {
                if body.readableBytes > 0 { try FileSystem.writeAtomically(Array(buffer: body), to: file) }
                let refs = try await UserTransfer.importRepository(
                    uid, bundle: body.readableBytes > 0 ? file : nil, expecting: expected, into: folder,
                    cairn: server.options.cairn, schemaSet: server.options.schemaSet)
                server.logger.info("moved in", metadata: ["uid": "\(uid)"])
                return Self.text(200, UserTransfer.text(refs))
            } catch let error as BackupError {
                return Self.text(409, error.description)
            } catch let error as CairnError {
                return Self.text(500, error.message)
            }
        }
        router.post("/admin/users/:uid/retire") { request, context in
            if let refused = server.adminRefusal(request) { return refused }
            guard let uid = context.parameters.get("uid"), let shard = request.uri.queryParameters.get("to"), !shard.isEmpty else {
                return Self.text(400, "name the user and the shard it moved to (?to=)")
            }
            guard PushHold.isHeld(folder.repository(uid)) || FileSystem.kind(folder.repository(uid)) == nil else {
                return Self.text(409, "the pushes of \(uid) are not held: export the repository before retiring it")
            }
            do { try folder.retire(uid, movedTo: shard) } catch { return Self.text(500, Self.message(of: error)) }
            server.logger.info("retired", metadata: ["uid": "\(uid)", "to": "\(shard)"])
            return Self.text(200, "\(uid) moved to \(shard)")
        }
    }

    static func message(of error: any Error) -> String {
        (error as? CairnError)?.message ?? "\(error)"
    }

    /// The refs of a transfer, in one header: `<object> <ref>` pairs, separated by commas.
    static let refsHeader = HTTPField.Name("X-Cairn-Refs")!

    static func headerValue(_ refs: [String: String]) -> String {
        refs.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ",")
    }

    static func refs(fromHeader value: String) -> [String: String] {
        UserTransfer.refs(value.split(separator: ",").joined(separator: "\n"))
    }

    /// 404 without an admin secret, 401 without the right one; nil: go on.
    func adminRefusal(_ request: Request) -> Response? {
        guard let secret = options.adminSecret else {
            return Self.text(404, "no administration here: start the server with --admin-secret-file to move users")
        }
        let given = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
        // Compared as digests, so the time taken says nothing of how much of the secret matched.
        guard SHA256.hash(data: Array(given.utf8)) == SHA256.hash(data: secret) else {
            return Self.text(401, "the administration asks for the operator's secret as Authorization: Bearer")
        }
        return nil
    }
}
