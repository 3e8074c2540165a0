import CairnMerge
import CairnSystem
import Git
import GitFormat
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ContentCache {
    /// Downloads `item` of `collection` for `store`'s user, from the store's content URL
    /// (``Store/contentRemote(collection:item:)``), with the user's credentials, and keeps it
    /// for offline use. An item held already is updated: only the objects of the versions it
    /// lacks are fetched. Every new version is checked before it is kept — the item's files
    /// only, each document JSON and, given the collection's `schemaSet`, valid under it — and
    /// the limits are held: an item over the per-item size, or one that cannot fit once every
    /// evictable item is gone, is refused; otherwise the items it needs room from are evicted
    /// (``ContentEviction``). Whatever fails, the cache is left as it was.
    @discardableResult
    public func download(
        collection: String, item: String, for store: Store, schemaSet: SchemaSet? = nil,
        options: SyncOptions = SyncOptions()
    ) throws(CairnError) -> ContentDownload {
        try Self.validate(collection: collection, item: item, then: "nothing was downloaded")
        if let schemaSet, schemaSet.contentCollection != collection {
            throw CairnError(
                .invalidInput,
                "the schema set given does not describe the collection \(collection); name the collection's content set, or none; nothing was downloaded"
            )
        }
        let remote = try store.contentRemote(collection: collection, item: item)
        return try options.presentingCredentials(to: remote, as: store.uid, configuration: store.configuration) {
            credentials throws(CairnError) in
            try download(
                collection: collection, item: item, from: remote, credentials: credentials, for: store, schemaSet: schemaSet,
                options: options)
        }
    }

    /// ``download(collection:item:for:schemaSet:options:)`` from `remote`, presenting `credentials`.
    private func download(
        collection: String, item: String, from remote: RemoteURL, credentials: Credentials?, for store: Store,
        schemaSet: SchemaSet?, options: SyncOptions
    ) throws(CairnError) -> ContentDownload {
        let key = collection + "/" + item
        let collectionFolder = home.contentFolder + "/" + collection
        return try locked { () throws(CairnError) -> ContentDownload in
            let madeFolder = FileSystem.kind(collectionFolder) == nil
            try FileSystem.makeFolders(collectionFolder)
            var record = try readRecord()
            sweepLeftovers(in: collectionFolder, collection: collection, record: record)
            // A refused download leaves no folder it made.
            var kept = false
            defer { if madeFolder && !kept { FileSystem.removeFolderIfEmpty(collectionFolder) } }
            let final = home.contentRepository(collection: collection, item: item)
            let incoming = collectionFolder + "/.incoming-\(item)-\(Syscalls.processID).git"
            defer { try? FileManager.default.removeItem(atPath: incoming) }
            let previous = FileSystem.kind(final) == .folder ? record.items[key] : nil
            try translating("cannot prepare the download of \(key)") {
                if previous != nil {
                    // A copy of the version held: the fetch asks only for what it lacks, and a
                    // refused version never touches the item in use.
                    try FileManager.default.copyItem(atPath: final, toPath: incoming)
                } else {
                    _ = try Repository.create(at: incoming, initialBranch: Store.branch, bare: true)
                }
            }
            let received = try fetch(into: incoming, from: remote, key: key, credentials: credentials, store: store, options: options)
            let (commit, version, passedOver) = try checkDownload(
                in: incoming, key: key, collection: collection, item: item,
                from: remote, previous: previous?.commit.objectID, schemaSet: schemaSet)
            let size = Self.sizeOnDisk(incoming)
            let limits = record.limits
            if size > limits.maxItemBytes {
                throw CairnError(
                    .refused,
                    "\(key) takes \(Self.shown(size)) on disk, over the limit of \(Self.shown(limits.maxItemBytes)) an item",
                    remedy: .raiseItemSizeLimit)
            }
            let time = now()
            let plan: ContentEviction
            // Which items hold answers not yet pushed is asked of every store of the home: only
            // when something must be evicted.
            let others = record.items.values.filter { $0.key != key }
            let fits = others.count + 1 <= limits.maxItems && others.reduce(size, { $0 + $1.sizeBytes }) <= limits.budgetBytes
            switch ContentEviction.plan(
                items: Array(record.items.values), incoming: key, incomingBytes: size, limits: limits,
                protected: fits ? [] : protectedItems(among: record.items.values), now: time)
            {
            case .success(let made): plan = made
            case .failure(let shortfall):
                throw CairnError(
                    .refused,
                    "\(key) (\(Self.shown(size))) cannot fit: \(shortfall.keptItems) item(s) taking \(Self.shown(shortfall.keptBytes)) have responses not yet synced (\(shortfall.protected.joined(separator: ", "))) and the limits are \(Self.shown(limits.budgetBytes)) and \(limits.maxItems) item(s)",
                    remedy: .syncOrRaiseContentLimits)
            }
            kept = true
            // The record first: an interrupted eviction leaves repositories the record no
            // longer names (swept on the next download), never a record naming a missing one.
            for evicted in plan.evicted { record.items[evicted.key] = nil }
            let held = CachedItem(
                collection: collection, item: item, commit: CheckpointID(commit), version: version, sizeBytes: size,
                downloadedAt: time, expiresAt: time + limits.expirySeconds,
                lastAccessedAt: previous?.lastAccessedAt,
                passedOver: commit == previous?.commit.objectID ? previous?.passedOver ?? [] : passedOver)
            try install(incoming, as: final)
            record.items[key] = held
            try write(record)
            for evicted in plan.evicted {
                try? FileManager.default.removeItem(atPath: home.contentRepository(collection: evicted.collection, item: evicted.item))
            }
            store.logger.debug(
                "content download",
                metadata: [
                    "item": "\(key)", "version": "\(version)", "bytes": "\(received.bytes)", "evicted": "\(plan.evicted.count)",
                ])
            return ContentDownload(
                item: held, previous: previous, receivedObjects: received.objects,
                receivedBytes: received.bytes, evicted: plan.evicted)
        }
    }

    /// Fetches the item's `main` into the repository at `folder`; what it received.
    private func fetch(
        into folder: String, from remote: RemoteURL, key: String, credentials: Credentials?, store: Store,
        options: SyncOptions
    ) throws(CairnError) -> (objects: Int, bytes: Int) {
        if remote.transport == .path, FileSystem.kind(remote.url) != .folder {
            throw Self.missing(key, at: remote)
        }
        let ssh = try store.sshAccess(for: remote)
        let repository: Repository
        do {
            repository = try Repository(openingAt: folder)
        } catch {
            throw CairnError(.io, "cannot open the download of \(key) at \(folder): \(error)", cause: error)
        }
        nonisolated(unsafe) var last: Git.TransferProgress?
        do {
            try options.retryingNetworkFailures(logger: store.logger) {
                var connection: Remote?
                do {
                    let made = try Remote(repository: repository, url: ssh?.url ?? remote.connectionURL)
                    connection = made
                    made.timeout = options.networkTimeout
                    try made.fetch(["+refs/heads/\(Store.branch):refs/heads/\(Store.branch)"], credentials: credentials?.git, ssh: ssh) {
                        step in
                        last = step
                        options.progress?(TransferProgress(step))
                    }
                } catch {
                    if let error = error as? GitError, Store.meansNoSuchItem(error) { throw Self.missing(key, at: remote, cause: error) }
                    throw Store.remoteFailure(
                        error, remote: remote, credentials: credentials, ssh: connection?.lastSSHAttempt,
                        doing: "download \(key) from")
                }
            }
        } catch let error as CairnError where error.code == .notFound {
            throw Self.missing(key, at: remote, cause: error)
        } catch let error as CairnError {
            throw CairnError(error.code, error.message + "; nothing was downloaded", remedy: error.remedy, cause: error)
        } catch {
            throw CairnError(.io, "cannot download \(key) from \(remote): \(error); nothing was downloaded")
        }
        return (last?.objects ?? 0, last?.bytes ?? 0)
    }

    /// The one line for an item the server does not have.
    static func missing(_ key: String, at remote: RemoteURL, cause: (any Error)? = nil) -> CairnError {
        CairnError(
            .notFound,
            "there is no item \(key) at \(remote): it was never published or has been deleted",
            remedy: .checkContentName(consequence: "nothing was downloaded"), cause: cause)
    }

    /// What a download takes of the versions it brought (those after `previous`): the newest
    /// whose tree holds to the rules of content — the item's own files only, each document a
    /// JSON object valid under `schemaSet` when given, the item's own document there — and,
    /// oldest first, the newer versions than `previous` that do not, passed over. Each version
    /// is judged whole, along `main`'s first parents: a version after a broken one is broken
    /// too until a later one fixes what broke. Refused when none of them holds to the rules
    /// (the first problem of the newest is named), and when `main` no longer holds `previous`
    /// (a rewrite, which a content server refuses). The repository's `main` is set to the
    /// version taken.
    private func checkDownload(
        in folder: String, key: String, collection: String, item: String, from remote: RemoteURL,
        previous: ObjectID?, schemaSet: SchemaSet?
    ) throws(CairnError) -> (ObjectID, Int, [PassedOverVersion]) {
        try translating("cannot check the download of \(key)") { () throws -> (ObjectID, Int, [PassedOverVersion]) in
            let repository = try Repository(openingAt: folder)
            guard let tip = try repository.reference("refs/heads/" + Store.branch) else {
                throw CairnError(
                    .notFound,
                    "\(key) at \(remote) has no published version yet (its \(Store.branch) is empty); ask its authors to publish it; nothing was downloaded"
                )
            }
            if let previous, previous != tip, try !repository.isDescendant(tip, of: previous) {
                throw CairnError(
                    .corrupt,
                    "\(key) at \(remote) no longer holds the version kept here (\(previous.short)): its history was rewritten, which a content server refuses; nothing was downloaded"
                )
            }
            let versions = try newVersions(
                in: repository, tip: tip, after: previous, collection: collection, item: item, schemaSet: schemaSet)
            guard let taken = versions.last(where: { $0.problems.isEmpty }) else {
                guard let newest = versions.last, let (commit, reason) = newest.problems.first else {
                    return (tip, try Self.versionNumber(of: tip, in: repository), [])
                }
                let more = newest.problems.count > 1 ? " (and \(newest.problems.count - 1) more)" : ""
                throw CairnError(
                    .corrupt, "refused \(key) from \(remote): commit \(commit.short): \(reason)\(more); nothing was downloaded")
            }
            var passedOver: [PassedOverVersion] = []
            for version in versions {
                guard let (_, reason) = version.problems.first else { continue }
                passedOver.append(
                    PassedOverVersion(
                        version: try Self.versionNumber(of: version.commit, in: repository),
                        commit: CheckpointID(version.commit), reason: reason))
            }
            if taken.commit != tip {
                try repository.setReference(
                    "refs/heads/" + Store.branch, to: taken.commit, expecting: tip,
                    message: "content: the newest version that holds to the rules")
            }
            return (taken.commit, try Self.versionNumber(of: taken.commit, in: repository), passedOver)
        }
    }

    /// The versions after `previous` (all, without one) along the first parents of `tip`,
    /// oldest first, each with what breaks the rules of content in its tree: the problem and
    /// the version that brought it, by file.
    private func newVersions(
        in repository: Repository, tip: ObjectID, after previous: ObjectID?, collection: String, item: String,
        schemaSet: SchemaSet?
    ) throws -> [(commit: ObjectID, problems: [(ObjectID, String)])] {
        var chain: [ObjectID] = []
        var cursor: ObjectID? = tip
        while let id = cursor, id != previous {
            // A first parent that is older than the version held: the newer ones start above it.
            if let previous, try repository.isDescendant(previous, of: id) { break }
            chain.append(id)
            cursor = try repository.commit(id).parentIDs.first
        }
        let itemDocument = collection + "/" + item + ".json"
        var broken: [String: (ObjectID, String)] = [:]
        var tree = try previous.map { try repository.commit($0).treeID }
        var versions: [(commit: ObjectID, problems: [(ObjectID, String)])] = []
        for id in chain.reversed() {
            let next = try repository.commit(id).treeID
            for difference in try repository.differences(among: [tree, next]) {
                broken[difference.path] = nil
                guard let entry = difference.entries[1] else { continue }
                if let problem = try Self.problem(
                    of: difference, entry: entry, in: repository, collection: collection, item: item,
                    schemaSet: schemaSet)
                {
                    broken[difference.path] = (id, problem)
                }
            }
            var problems = broken.keys.sorted().map { broken[$0]! }
            if try repository.blobID(at: itemDocument, inCommit: id) == nil { problems.append((id, "\(itemDocument) is missing")) }
            versions.append((id, problems))
            tree = next
        }
        return versions
    }

    /// What is wrong with a file of a content item's tree: out of the item, not a document of
    /// the set, not JSON, refused by its schema; nil when nothing is.
    private static func problem(
        of difference: TreeDifference, entry: TreeEntry, in repository: Repository, collection: String,
        item: String, schemaSet: SchemaSet?
    ) throws -> String? {
        if let refusal = ContentTree.refusal(of: difference.components, mode: entry.mode, collection: collection, item: item) {
            return refusal.description
        }
        guard let document = DocumentPath(fileName: difference.path) else { return nil }
        let kind = schemaSet?.kind(of: document)
        if let schemaSet, kind == nil {
            return
                "\(document) is no kind of document of the collection's schema set; its paths are \(schemaSet.kinds.map { $0.pattern.description }.sorted().joined(separator: ", "))"
        }
        return PushRules.refusal(of: try repository.blobContent(entry.id), at: document, kind: kind)
    }

    /// The number of a version: the commits it was made on, itself included.
    private static func versionNumber(of commit: ObjectID, in repository: Repository) throws -> Int {
        var version = 0
        try repository.walkHistory(from: commit) { _ in
            version += 1
            return true
        }
        return version
    }

    /// Puts the checked download in place of the item's repository: the two folders' names
    /// swapped in one step (`renameat2`), so a reader without the lock — a put pinning its
    /// version, `content get` — always finds a whole repository there; where the file system
    /// cannot swap, the old one is set aside first and the new one renamed in. The old one is
    /// then removed.
    private func install(_ incoming: String, as final: String) throws(CairnError) {
        if FileSystem.kind(final) != nil, Syscalls.canExchange, case .success = Syscalls.exchange(incoming, final) {
            try? FileManager.default.removeItem(atPath: incoming)
            return
        }
        let aside = FileSystem.parent(of: final) + "/.old-" + FileSystem.lastComponent(of: final)
        if FileSystem.kind(final) != nil {
            try? FileManager.default.removeItem(atPath: aside)
            try FileSystem.move(final, to: aside)
        }
        try FileSystem.move(incoming, to: final)
        try? FileManager.default.removeItem(atPath: aside)
    }

    /// Removes what an interrupted download or removal left in a collection's folder: incoming
    /// copies, old versions set aside (put back when their item is missing), and item
    /// repositories the record does not name (an eviction cut short, a repository a failed
    /// removal left). Runs under the cache's lock.
    func sweepLeftovers(in collectionFolder: String, collection: String, record: Record) {
        for name in FileSystem.names(in: collectionFolder) where name.hasPrefix(".old-") {
            let original = collectionFolder + "/" + name.dropFirst(".old-".count)
            if FileSystem.kind(original) == nil {
                try? FileSystem.move(collectionFolder + "/" + name, to: original)
            } else {
                try? FileManager.default.removeItem(atPath: collectionFolder + "/" + name)
            }
        }
        for name in FileSystem.names(in: collectionFolder) where name.hasSuffix(".git") && !name.hasPrefix(".") {
            let item = String(name.dropLast(".git".count))
            guard record.items[collection + "/" + item] == nil, (try? DocumentID.validate(item, in: item)) != nil else { continue }
            try? FileManager.default.removeItem(atPath: collectionFolder + "/" + name)
        }
        for name in FileSystem.names(in: collectionFolder) where name.hasPrefix(".incoming-") {
            // Another process's download holds the lock, so only a dead one's copy is here.
            try? FileManager.default.removeItem(atPath: collectionFolder + "/" + name)
        }
    }

    /// The bytes of the files below `folder`.
    static func sizeOnDisk(_ folder: String) -> Int64 {
        var total: Int64 = 0
        for name in FileSystem.names(in: folder) {
            let path = folder + "/" + name
            guard case .success(let status) = Syscalls.status(of: path, followingLinks: false) else { continue }
            switch status.kind {
            case .file: total += Int64(status.size)
            case .folder: total += sizeOnDisk(path)
            case .other: break
            }
        }
        return total
    }

    /// A size as people read it, in decimal units as the seed's limits are given (500 MB).
    public static func shown(_ bytes: Int64) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        let (unit, scale): (String, Int64) =
            bytes < 1_000_000 ? ("kB", 1_000) : bytes < 1_000_000_000 ? ("MB", 1_000_000) : ("GB", 1_000_000_000)
        let tenths = bytes * 10 / scale
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }

    /// Runs `body`, turning what it throws into a `CairnError` (git's failures as damage).
    func translating<T>(
        _ what: String, then consequence: String = "nothing was downloaded", remedy: CairnError.Remedy? = nil,
        _ body: () throws -> T
    ) throws(CairnError) -> T {
        do {
            return try body()
        } catch let error as CairnError {
            throw error
        } catch {
            if let remedy { throw CairnError(.io, "\(what): \(error)", remedy: remedy) }
            throw CairnError(.io, "\(what): \(error); \(consequence)")
        }
    }
}
