import CairnMerge
import CairnSystem
import Git
import GitFormat
import Logging

extension Store {
    /// The pin check of a sync: the pinned documents that pushing `local` over `theirs` would
    /// send, grouped by (collection, item, version), each item asked of its server once per
    /// sync (`answers` keeps what the servers said across the sync's rounds). A group whose
    /// version is no longer the server's is held, unless a checkpoint being pushed decided to
    /// submit it anyway; a deleted item is always held.
    func checkPins(
        from theirs: ObjectID?, to local: ObjectID, credentials: Credentials?, options: SyncOptions,
        answers: inout [String: ObjectID?]
    ) throws -> [PinCheck] {
        let documents = try pinnedDocuments(from: theirs, to: local)
        guard !documents.isEmpty else { return [] }
        var submitted = Set<String>()
        for id in try repository.commits(from: local, hiding: theirs.map { [$0] } ?? []) {
            for recorded in ContentDecision.recorded(in: try repository.commit(id).message) where recorded.decision == .submitAnyway {
                submitted.insert("\(recorded.collection)/\(recorded.item) \(recorded.version)")
            }
        }
        var groups: [(key: String, documents: [PinnedDocument])] = []
        for document in documents {
            let key = "\(document.collection)/\(document.item) \(document.version ?? "")"
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].documents.append(document)
            } else {
                groups.append((key, [document]))
            }
        }
        var checks: [PinCheck] = []
        for (key, members) in groups {
            let first = members[0]
            let version = first.version ?? ""
            let itemKey = "\(first.collection)/\(first.item)"
            let server: ObjectID?
            if let answer = answers[itemKey] {
                server = answer
            } else {
                server = try serverContentVersion(
                    collection: first.collection, item: first.item, credentials: credentials, options: options)
                answers[itemKey] = .some(server)
            }
            let state: PinCheck.State = server == nil ? .deleted : server?.hex == version ? .unchanged : .updated
            checks.append(
                PinCheck(
                    collection: first.collection, item: first.item, pinnedVersion: version,
                    pinnedNumber: contentVersionNumber(collection: first.collection, item: first.item, version: version),
                    state: state, serverVersion: server?.hex,
                    serverNumber: server.flatMap { contentVersionNumber(collection: first.collection, item: first.item, version: $0.hex) },
                    submittedAnyway: submitted.contains(key), documents: members.map(\.path)))
            logger.debug("pin check", metadata: ["item": "\(itemKey)", "version": "\(version.prefix(7))", "state": "\(state.rawValue)"])
        }
        return checks
    }

    /// The server's `main` of an item (`git ls-remote` of ``contentRemote(collection:item:)``);
    /// nil when the server has no such item (a missing path, HTTP 404, SSH's "not found") or no
    /// version of it. Network failures are tried again like the sync's own.
    func serverContentVersion(
        collection: String, item: String, credentials: Credentials?,
        options: SyncOptions
    ) throws -> ObjectID? {
        let remote = try contentRemote(collection: collection, item: item)
        if remote.transport == .path, FileSystem.kind(remote.url) != .folder { return nil }
        let ssh = try sshAccess(for: remote)
        return try options.retryingNetworkFailures(logger: logger) { () throws -> ObjectID? in
            var connection: Remote?
            do {
                let made = try Remote(repository: repository, url: ssh?.url ?? remote.connectionURL)
                connection = made
                made.timeout = options.networkTimeout
                return try made.references(credentials: credentials?.git, ssh: ssh)["refs/heads/" + Self.branch]
            } catch {
                if let error = error as? GitError, Self.meansNoSuchItem(error) { return nil }
                throw Self.remoteFailure(
                    error, remote: remote, credentials: credentials, ssh: connection?.lastSSHAttempt, doing: "ask about")
            }
        }
    }
}
