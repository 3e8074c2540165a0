import CairnMerge
import Dispatch
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A user's progress, for an app: documents by path (raw JSON or any `Codable` type),
/// checkpoints on the schedule the schema set declares, sync, and a stream of the documents
/// that changed.
///
/// ```swift
/// let store = try ProgressStore(home: Home(root: folder), user: "u1")
/// try store.put(attempt, at: "users/u1/examAttempts/\(attempt.attemptId)")
/// let saved = try store.get(ExamAttempt.self, at: "users/u1/examAttempts/a1")
/// try await store.sync()
/// ```
///
/// All the work on the repository happens on the store's own serial dispatch queue, never on
/// Swift's cooperative thread pool: the synchronous methods (writes and reads) wait for it,
/// the `async` ones (checkpoint, sync) suspend the caller instead. The store is
/// `Sendable` — share it between tasks and threads — and stays the one owner of its
/// repository. Another process writing the same store waits for the store's lock as usual.
public final class ProgressStore: @unchecked Sendable {
    /// The user whose progress this is.
    public let uid: String
    /// The store's folder (a git repository).
    public let folder: String
    /// The clock checkpoints and syncs are scheduled by.
    public let clock: any CheckpointClock
    /// The home the store is in.
    public let home: Home

    private let queue: DispatchQueue
    /// Marks the store's queue, so a call made from it (inside ``withStore(_:)``) runs at once
    /// instead of waiting for itself.
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    // Everything below is touched only on `queue`.
    private let store: Store
    private var scheduler = CheckpointScheduler()
    private var checkpointTimer: ScheduledAction?
    private var syncTimer: ScheduledAction?
    private var observers: [Int: Observer] = [:]
    private var observerCount = 0

    private struct Observer {
        var prefix: String?
        var continuation: AsyncStream<[DocumentPath]>.Continuation
    }

    /// Opens the store of `user` in `home` (default: the home's active user).
    public init(home: Home, user: String? = nil, clock: any CheckpointClock = SystemClock()) throws(CairnError) {
        store = try home.openStore(user)
        self.home = home
        uid = store.uid
        folder = store.folder
        self.clock = clock
        queue = DispatchQueue(label: "cairn.store.\(store.uid)")
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        checkpointTimer?.cancel()
        syncTimer?.cancel()
        for observer in observers.values { observer.continuation.finish() }
    }

    // MARK: Documents

    /// Writes a document (a JSON object), checked against its schema; it is checkpointed when
    /// its kind's policy says (at once for `immediate`, before this returns).
    public func put(_ value: JSONValue, at path: String) throws(CairnError) {
        let document = try Self.documentPath(path)
        try onQueue { () throws(CairnError) in
            try store.put(value, at: document)
            try wrote([document])
        }
    }

    /// Writes any `Encodable` value as the document at `path` (dates as ISO 8601 text).
    public func put<Value: Encodable>(_ value: Value, at path: String) throws(CairnError) {
        let bytes: Data
        do {
            bytes = try Self.encoder.encode(value)
        } catch {
            throw CairnError(.invalidInput, "cannot write \(path): \(value) does not encode as JSON (\(error)); nothing was written")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONParser().parse([UInt8](bytes))
        } catch {
            throw CairnError(.invalidInput, "cannot write \(path): \(error.description); nothing was written", cause: error)
        }
        try put(parsed, at: path)
    }

    /// Writes a document with files attached to its asset fields (a session's recording):
    /// the files are copied into the store, the fields point to them, and the next sync
    /// uploads them before the commit (see CairnCore.docc, Assets).
    @discardableResult
    public func put(_ value: JSONValue, at path: String, attaching attachments: [AssetAttachment]) throws(CairnError) -> [AssetReference] {
        let document = try Self.documentPath(path)
        return try onQueue { () throws(CairnError) -> [AssetReference] in
            let references = try store.put(value, at: document, attaching: attachments)
            try wrote([document])
            return references
        }
    }

    /// Clears an asset field of the document at `path`; the next sync deletes the asset's
    /// bytes from the server and the devices.
    public func removeAsset(_ field: String, of path: String) throws(CairnError) {
        let document = try Self.documentPath(path)
        try onQueue { () throws(CairnError) in
            try store.removeAsset(field, of: document)
            try wrote([document])
        }
    }

    /// The file holding the asset in `field` of the document at `path`, downloaded from the
    /// remote first when this device does not have it (the store's other calls wait).
    public func assetFile(_ field: String, of path: String) throws(CairnError) -> String {
        let document = try Self.documentPath(path)
        return try onQueue { () throws(CairnError) in try store.assetFile(field, of: document) }
    }

    /// The document at `path`, or nil when there is none.
    public func get(_ path: String) throws(CairnError) -> JSONValue? {
        let document = try Self.documentPath(path)
        return try onQueue { () throws(CairnError) in try store.document(at: document) }
    }

    /// The document at `path` decoded as `type`, or nil when there is none.
    public func get<Value: Decodable>(_ type: Value.Type, at path: String) throws(CairnError) -> Value? {
        let document = try Self.documentPath(path)
        // Through the store's parsed documents, so a document read before costs a stat.
        guard let bytes = try onQueue({ () throws(CairnError) in try store.document(at: document)?.canonicalBytes() }) else { return nil }
        do {
            return try Self.decoder.decode(type, from: Data(bytes))
        } catch {
            throw CairnError(.invalidInput, "\(path) does not decode as \(type): \(error)")
        }
    }

    /// Deletes a document (with `recursive`, its subcollections too). Returns the documents
    /// removed.
    @discardableResult
    public func delete(_ path: String, recursive: Bool = false) throws(CairnError) -> [DocumentPath] {
        let document = try Self.documentPath(path)
        return try onQueue { () throws(CairnError) -> [DocumentPath] in
            let removed = try store.delete(document, recursive: recursive)
            try wrote(removed)
            return removed
        }
    }

    /// The IDs of the documents of a collection (`users/u1/examAttempts`), sorted.
    public func list(_ collection: String) throws(CairnError) -> [String] {
        let path: CollectionPath
        do {
            path = try CollectionPath(collection)
        } catch {
            throw CairnError.invalid(error)
        }
        return try onQueue { () throws(CairnError) in try store.list(path) }
    }

    /// Runs `body` with the underlying store on the store's queue: history, conflicts,
    /// validation, status — whatever the rest of the API does not say.
    public func withStore<T>(_ body: (Store) throws(CairnError) -> T) throws(CairnError) -> T {
        try onQueue { () throws(CairnError) in try body(store) }
    }

    // MARK: Checkpoints and sync

    /// Commits the pending writes now (the app goes to the background, a screen closes).
    @discardableResult
    public func checkpoint(message: String? = nil) async throws -> CheckpointResult {
        try await background { [self] () throws(CairnError) in try checkpointNow(message: message) }
    }

    /// Checkpoints, fetches, merges and pushes (see ``Store/sync(_:)``); then tells the
    /// observers which documents the remote changed.
    @discardableResult
    public func sync(_ options: SyncOptions = SyncOptions()) async throws -> SyncResult {
        try await background { [self] () throws(CairnError) in try syncNow(options) }
    }

    /// Syncs every `seconds` from now on (and once at once), until ``stopSyncing()``. Failures
    /// are left for the next round; the store's log says what they were.
    public func startSyncing(every seconds: Double, options: SyncOptions = SyncOptions()) {
        try? onQueue { () throws(CairnError) in
            syncTimer?.cancel()
            scheduleSync(every: seconds, after: 0, options: options)
        }
    }

    /// Stops the syncs ``startSyncing(every:options:)`` scheduled.
    public func stopSyncing() {
        try? onQueue { () throws(CairnError) in
            syncTimer?.cancel()
            syncTimer = nil
        }
    }

    /// When the next scheduled checkpoint is due, by the store's clock; nil when no write waits.
    public var nextCheckpoint: Double? {
        (try? onQueue { () throws(CairnError) in scheduler.nextDue }) ?? nil
    }

    /// Takes the progress of another user of the same home (an anonymous user, after the
    /// person signs in) into this one, explicitly (see ``Store/importProgress(of:)``); the
    /// observers hear of the documents it changed.
    @discardableResult
    public func importProgress(of other: String) async throws -> ImportResult {
        try await background { [self] () throws(CairnError) in
            let result = try store.importProgress(of: home.openStore(other))
            scheduler.checkpointed(at: clock.now(), kinds: [])
            publish(result.changedFiles.compactMap { DocumentPath(fileName: $0) })
            return result
        }
    }

    // MARK: Observation

    /// The documents that change from now on — written here, or brought by a sync — as one
    /// batch of paths per write or sync; with `prefix` (`users/u1/books`), only those below it.
    public func changes(under prefix: String? = nil) -> AsyncStream<[DocumentPath]> {
        let (stream, continuation) = AsyncStream<[DocumentPath]>.makeStream(bufferingPolicy: .unbounded)
        try? onQueue { () throws(CairnError) in
            observerCount += 1
            let key = observerCount
            observers[key] = Observer(prefix: prefix, continuation: continuation)
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.queue.async { self.observers[key] = nil }
            }
        }
        return stream
    }

    // MARK: On the queue

    private func checkpointNow(message: String? = nil) throws(CairnError) -> CheckpointResult {
        let result = try store.checkpoint(message: message)
        scheduler.checkpointed(at: clock.now(), kinds: [])
        checkpointTimer?.cancel()
        checkpointTimer = nil
        return result
    }

    private func syncNow(_ options: SyncOptions) throws(CairnError) -> SyncResult {
        let result = try store.sync(options)
        scheduler.checkpointed(at: clock.now(), kinds: [])
        checkpointTimer?.cancel()
        checkpointTimer = nil
        let changed = result.changedFiles.compactMap { DocumentPath(fileName: $0) }
        publish(changed)
        return result
    }

    private func scheduleSync(every seconds: Double, after delay: Double, options: SyncOptions) {
        syncTimer = clock.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.queue.sync {
                _ = try? self.syncNow(options)
                self.scheduleSync(every: seconds, after: seconds, options: options)
            }
        }
    }

    /// After a write: tells the observers, and checkpoints now or later as the policies say.
    private func wrote(_ paths: [DocumentPath]) throws(CairnError) {
        publish(paths)
        let set = try store.schemaSet()
        let now = clock.now()
        var immediate = false
        for path in paths {
            let kind = set.kind(of: path)
            let policy = kind?.checkpoint ?? .standard
            if scheduler.noteWrite(kind: kind?.file ?? "", policy: policy, at: now) { immediate = true }
        }
        if immediate {
            _ = try checkpointNow()
            return
        }
        scheduleCheckpoint()
    }

    /// Sets the timer for the earliest due checkpoint.
    private func scheduleCheckpoint() {
        checkpointTimer?.cancel()
        checkpointTimer = nil
        guard let due = scheduler.nextDue else { return }
        checkpointTimer = clock.schedule(after: due - clock.now()) { [weak self] in
            guard let self else { return }
            self.queue.sync {
                guard let due = self.scheduler.nextDue, due <= self.clock.now() else { return }
                do {
                    _ = try self.checkpointNow()
                } catch {
                    self.store.logger.error("scheduled checkpoint failed", metadata: ["reason": "\(error)"])
                    self.scheduleCheckpoint()
                }
            }
        }
    }

    private func publish(_ paths: [DocumentPath]) {
        guard !paths.isEmpty else { return }
        for observer in observers.values {
            let seen = observer.prefix.map { prefix in paths.filter { $0.description.hasPrefix(prefix) } } ?? paths
            if !seen.isEmpty { observer.continuation.yield(seen) }
        }
    }

    // MARK: Plumbing

    /// Runs `body` on the store's queue and waits for it.
    private func onQueue<T>(_ body: () throws(CairnError) -> T) throws(CairnError) -> T {
        if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) { return try body() }
        let result: Result<T, CairnError> = queue.sync {
            do throws(CairnError) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `body` on the store's queue without blocking the caller's thread.
    private func background<T: Sendable>(_ body: @escaping @Sendable () throws(CairnError) -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do throws(CairnError) {
                    continuation.resume(returning: try body())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    static func documentPath(_ text: String) throws(CairnError) -> DocumentPath {
        do {
            return try DocumentPath(text)
        } catch {
            throw CairnError.invalid(error)
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
