import CairnCore
import CairnMerge
import CairnServer
import Git
import GitFormat
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Devices of one user and a remote, for telling a merge story step by step and checking
/// what must hold after any step: each device a real ``Home`` and ``Store`` in a temporary
/// folder, the remote a real bare repository made as `cairn server init` makes one.
///
/// The first device creates the user's store with the schema set and pushes it; the others
/// restore it from the remote, so all start on the same checkpoint. Every step and
/// expectation is counted (from 0); a failure throws a ``StoryFailure`` naming the step and,
/// for a value that differs, the differences. Nothing here depends on a test framework:
///
/// ```swift
/// let story = try Story(schemaSet: set, devices: ["phone", "laptop"])
/// try story.run(.put(device: "phone", path: "users/u1/books/b1", value: book))
/// try story.run(.sync(device: "phone"))
/// try story.run(.sync(device: "laptop"))
/// try story.expect(.equals(device: "laptop", path: "users/u1/books/b1", value: book))
/// ```
public final class Story {
    /// The user whose store the devices hold.
    public let user: String
    /// The devices, in the order given.
    public let devices: [String]
    /// The folder holding the devices' homes and the remote (`server/<user>.git`).
    public let folder: String
    /// The remote the devices sync with.
    public let remote: RemoteURL
    /// How many steps and expectations have been taken.
    public private(set) var stepsTaken = 0

    private var stores: [String: Store] = [:]
    private var offline: Set<String> = []
    private var lastSync: [String: SyncResult] = [:]
    private let removesFolder: Bool
    private let options = SyncOptions(retry: .none, sleep: { _ in })

    /// A remote nobody answers (the discard port of this machine): an offline device's.
    static let unreachable = "http://127.0.0.1:9/"

    /// Devices of `user` with `schemaSet`, in `folder` (a new temporary folder, removed with
    /// the story, when nil). `clock` is every device's clock to begin with (nil: unknown).
    public init(
        schemaSet: SchemaSetFiles, devices: [String], user: String = "u1", in folder: String? = nil,
        clock: Int64?? = .none
    ) throws(StoryFailure) {
        guard !devices.isEmpty else { throw StoryFailure("a story needs at least one device") }
        if let repeated = devices.first(where: { name in devices.filter { $0 == name }.count > 1 }) {
            throw StoryFailure("the device \"\(repeated)\" is named twice")
        }
        if let bad = devices.first(where: { !Self.isDeviceName($0) }) {
            throw StoryFailure("invalid device name \"\(bad)\": \(Self.deviceNameRule)")
        }
        self.user = user
        self.devices = devices
        if let folder {
            self.folder = folder
            removesFolder = false
        } else {
            self.folder = try Self.temporaryFolder()
            removesFolder = true
        }
        do {
            _ = try Server.createRepositories(in: self.folder + "/server", uids: [user], cairn: "cairn", schemaSet: schemaSet)
            remote = try RemoteURL(self.folder + "/server/\(user).git")
            for (index, device) in devices.enumerated() {
                let home = Home(root: self.folder + "/devices/" + device)
                let store: Store
                if index == 0 {
                    store = try home.createStore(user, schemaSet: schemaSet)
                    try store.setRemote(remote)
                    try store.sync(options)
                } else {
                    store = try home.cloneStore(from: remote, uid: user, options: options)
                }
                if case .some(let time) = clock { store.clock = { time } }
                // A story's stores keep quiet: its failures say what went wrong.
                store.logger = Logger(label: "cairn", factory: { _ in SwiftLogNoOpLogHandler() })
                stores[device] = store
            }
        } catch {
            if removesFolder { try? FileManager.default.removeItem(atPath: self.folder) }
            throw StoryFailure("the devices cannot be set up: \(error.description)")
        }
    }

    deinit {
        if removesFolder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// The store of `device`, for what the story's vocabulary does not say.
    public func store(_ device: String) throws(StoryFailure) -> Store {
        guard let store = stores[device] else {
            throw StoryFailure("there is no device \"\(device)\" (devices: \(devices.joined(separator: ", ")))")
        }
        return store
    }

    /// The document at `path` on `device`, as it is now (nil: absent).
    public func document(at path: String, on device: String) throws(StoryFailure) -> JSONValue? {
        let store = try store(device)
        let path = try Self.path(path)
        do {
            return try store.document(at: path)
        } catch {
            throw StoryFailure("cannot read \(path) on \(device): \(error.description)")
        }
    }

    /// Takes `step`; a store that refuses it fails the story, with the store's error as the
    /// failure's ``StoryFailure/storeError`` (see ``Expectation/refused(_:code:message:)`` for
    /// steps that must be refused).
    public func run(_ step: Step) throws(StoryFailure) {
        try counted(step.description) { () throws(StoryFailure) in try perform(step) }
    }

    /// Checks `expectation`, counted as a step.
    public func expect(_ expectation: Expectation) throws(StoryFailure) {
        try counted(expectation.description) { () throws(StoryFailure) in try check(expectation) }
    }

    /// Runs `body` as the next step, described as `what`: a failure names the step.
    private func counted(_ what: String, _ body: () throws(StoryFailure) -> Void) throws(StoryFailure) {
        let index = stepsTaken
        stepsTaken += 1
        do {
            try body()
        } catch var failure {
            failure.step = index
            failure.stepDescription = what
            throw failure
        }
    }

    /// The conflict records of the last sync of `device` (nil: it has not synced).
    public func lastConflicts(on device: String) -> [ConflictRecord]? {
        lastSync[device]?.conflicts
    }

    // MARK: Steps

    private func perform(_ step: Step) throws(StoryFailure) {
        let store = try store(step.device)
        do {
            try perform(step, on: store)
        } catch let error as CairnError {
            throw StoryFailure("refused: \(error.description)", storeError: error)
        } catch let error as StoryFailure {
            throw error
        } catch {
            throw StoryFailure("\(error)")
        }
    }

    /// The step on `store`; a refusal of the store as its ``CairnError``.
    private func perform(_ step: Step, on store: Store) throws {
        switch step {
        case .put(_, let path, let value):
            try store.put(value, at: try Self.path(path))
        case .patch(_, let path, let patch):
            let path = try Self.path(path)
            let current = try store.document(at: path) ?? .object([:])
            try store.put(current.applyingMergePatch(patch), at: path)
        case .remove(_, let path, let recursive):
            try store.delete(try Self.path(path), recursive: recursive)
        case .checkpoint:
            try store.checkpoint()
        case .sync(let device):
            guard offline.contains(device) else {
                lastSync[device] = try store.sync(options)
                return
            }
            let before = try remoteHead()
            let result = Result { () throws(CairnError) in try store.sync(options) }
            guard case .failure(let error) = result else {
                throw StoryFailure("\(device) is offline, yet its sync reached the remote")
            }
            guard error.code == .network else { throw error }
            guard try remoteHead() == before else {
                throw StoryFailure("\(device) is offline, yet the remote moved")
            }
        case .offline(let device):
            guard !offline.contains(device) else { throw StoryFailure("\(device) is offline already") }
            try store.setRemote(RemoteURL(Self.unreachable + user + ".git"))
            offline.insert(device)
        case .online(let device):
            guard offline.contains(device) else { throw StoryFailure("\(device) is online already") }
            try store.setRemote(remote)
            offline.remove(device)
        case .clock(_, let time):
            store.clock = { time }
        }
    }

    // MARK: Expectations

    private func check(_ expectation: Expectation) throws(StoryFailure) {
        switch expectation {
        case .equals(let device, let path, let value):
            let found = try document(at: path, on: device)
            guard let found, JSONValue.same(found, value) else {
                throw StoryFailure(
                    found == nil ? "\(path) is absent on \(device)" : "\(path) on \(device) differs",
                    differences: JSONDifference.between(expected: value, found: found))
            }
        case .contains(let device, let path, let value):
            let found = try document(at: path, on: device)
            let differences = JSONDifference.between(expected: value, found: found, subset: true)
            guard found != nil, differences.isEmpty else {
                throw StoryFailure(
                    found == nil ? "\(path) is absent on \(device)" : "\(path) on \(device) does not contain what was expected",
                    differences: found == nil ? [JSONDifference(pointer: "", expected: value, found: nil)] : differences)
            }
        case .absent(let device, let path):
            if let found = try document(at: path, on: device) {
                throw StoryFailure("\(path) is on \(device)", differences: [JSONDifference(pointer: "", expected: nil, found: found)])
            }
        case .sameTree(let named, let withRemote):
            try checkSameTree(named.isEmpty ? devices : named, remote: withRemote)
        case .verified:
            try checkHistories()
        case .conflicts(let device, let records):
            _ = try store(device)
            guard let result = lastSync[device] else { throw StoryFailure("\(device) has not synced") }
            let differences = Self.recordDifferences(expected: records, found: result.conflicts.map(\.jsonValue))
            if !differences.isEmpty {
                throw StoryFailure("the conflict records of \(device)'s last sync differ", differences: differences)
            }
        case .refused(let step, let code, let message):
            let store = try store(step.device)
            let before = try snapshot(store)
            do {
                try perform(step, on: store)
            } catch let error as CairnError {
                if let code, error.code != code {
                    throw StoryFailure("refused as \(error.code), not \(code): \(error.description)")
                }
                if let message, !error.description.contains(message) {
                    throw StoryFailure("refused, but the message does not hold \"\(message)\": \(error.description)")
                }
                let after = try snapshot(store)
                var changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
                // A sync checkpoints the pending writes before it fetches, and a refusal keeps
                // that checkpoint (as `cairn sync` says): the one write it may leave.
                if case .sync = step, try checkpointedPendingWrites(store, before: before, after: after) {
                    changed.removeAll { $0 == Self.head || $0 == Self.pending }
                }
                if !changed.isEmpty {
                    throw StoryFailure("refused, yet it wrote: \(changed.joined(separator: ", "))")
                }
                return
            } catch let error as StoryFailure {
                throw StoryFailure("expected a refusal, and the story failed: \(error.message)")
            } catch {
                throw StoryFailure("expected a refusal of the store, and it failed: \(error)")
            }
            throw StoryFailure("expected a refusal, and the step was taken")
        }
    }

    /// `cairn verify` on every device's store and on the remote: each finding, one line each.
    private func checkHistories() throws(StoryFailure) {
        var findings: [String] = []
        for device in devices {
            let store = try store(device)
            let result = try read("the history of \(device)") { try store.verify() }
            findings += result.findings.map { "\(device): \($0)" }
        }
        let result = try read("the remote's history") { try Store.verifyRepository(at: remote.url) }
        findings += result.findings.map { "the remote: \($0)" }
        guard findings.isEmpty else {
            throw StoryFailure(
                "cairn verify found \(findings.count == 1 ? "a finding" : "\(findings.count) findings"): "
                    + findings.joined(separator: "; "))
        }
    }

    private func checkSameTree(_ named: [String], remote withRemote: Bool) throws(StoryFailure) {
        var trees: [(String, String)] = []
        for device in named {
            let store = try store(device)
            let tree = try read("the tree of \(device)") { try store.repository.headCommit()?.treeID.description }
            trees.append((device, tree ?? "none"))
        }
        if withRemote {
            let tree = try read("the remote's tree") { () throws -> String? in
                let bare = try Store.openRemoteRepository(remote)
                return try bare.reference("refs/heads/" + Store.branch).map { try bare.commit($0).treeID.description }
            }
            trees.append(("the remote", tree ?? "none"))
        }
        guard Set(trees.map(\.1)).count > 1 else { return }
        var differences: [JSONDifference] = []
        let first = named[0]
        for device in named.dropFirst() {
            let mine = try documents(on: first)
            let theirs = try documents(on: device)
            for path in Set(mine.keys).union(theirs.keys).sorted() where !JSONValue.same(mine[path], theirs[path]) {
                differences += JSONDifference.between(expected: mine[path], found: theirs[path], at: "\(device): \(path)#")
            }
        }
        throw StoryFailure(
            "the trees differ: " + trees.map { "\($0.0) \($0.1.prefix(7))" }.joined(separator: ", ")
                + (differences.isEmpty ? "" : " (below: \(first)'s documents as expected)"),
            differences: differences)
    }

    /// The documents of `device`'s working tree, by path.
    private func documents(on device: String) throws(StoryFailure) -> [String: JSONValue] {
        let store = try store(device)
        var documents: [String: JSONValue] = [:]
        let root = store.folder + "/"
        for name in FileSystem.paths(under: root + "users") {
            guard name.hasSuffix(".json"), let path = DocumentPath(fileName: "users/" + name) else { continue }
            documents[path.description] = try? store.document(at: path)
        }
        return documents
    }

    /// The names a snapshot gives the device's checkpoint, its pending writes and the remote.
    private static let head = "(HEAD)", pending = "(pending writes)", theRemote = "(the remote)"

    /// What a refused step must leave as it was: every file of the working tree, the
    /// checkpoint the device is on, the pending writes, and the remote's branch.
    private func snapshot(_ store: Store) throws(StoryFailure) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in FileSystem.paths(under: store.folder, skipping: [".git"]) {
            files[name] = (try? FileSystem.read(store.folder + "/" + name)).flatMap { $0 } ?? []
        }
        files[Self.head] = Array((try read("the store's checkpoint") { try store.repository.headCommit()?.id.description } ?? "").utf8)
        files[Self.pending] = Array((try? store.status())?.pending.map { "\($0.kind) \($0.path)" }.joined(separator: "\n").utf8 ?? "".utf8)
        files[Self.theRemote] = Array((try remoteHead() ?? "").utf8)
        return files
    }

    /// Whether the device's checkpoint moved from `before` to `after` only by checkpointing
    /// the writes pending before: there were some and none are left, and the new checkpoint
    /// is one on top of the old one. (The working tree, compared file by file, stays as it
    /// was, so the new checkpoint holds exactly those writes.)
    private func checkpointedPendingWrites(_ store: Store, before: [String: [UInt8]], after: [String: [UInt8]]) throws(StoryFailure) -> Bool
    {
        guard before[Self.pending]?.isEmpty == false, after[Self.pending]?.isEmpty == true else { return false }
        let parents = try read("the store's checkpoint") { try store.repository.headCommit()?.parentIDs.map(\.description) }
        return parents == [String(decoding: before[Self.head] ?? [], as: UTF8.self)]
    }

    private func remoteHead() throws(StoryFailure) -> String? {
        try read("the remote's branch") {
            try Store.openRemoteRepository(remote).reference("refs/heads/" + Store.branch)?.description
        }
    }

    private func read<T>(_ what: String, _ body: () throws -> T) throws(StoryFailure) -> T {
        do {
            return try body()
        } catch {
            throw StoryFailure("cannot read \(what): \(error)")
        }
    }

    // MARK: Helpers

    /// What a device's name must be: the name of its home's folder.
    static let deviceNameRule = "a device's name is not empty, has no / and does not start with ."

    /// Whether `name` can name a device (``deviceNameRule``).
    static func isDeviceName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.hasPrefix(".")
    }

    static func path(_ text: String) throws(StoryFailure) -> DocumentPath {
        do {
            return try DocumentPath(text)
        } catch {
            throw StoryFailure("invalid document path \"\(text)\": \(error.description)")
        }
    }

    /// Where the records found differ from those expected: records paired by document and
    /// pointer, each compared field by field.
    static func recordDifferences(expected: [JSONValue], found: [JSONValue]) -> [JSONDifference] {
        func place(_ record: JSONValue) -> String {
            let document = record.field("document").flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
            let pointer = record.field("pointer").flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
            return document + "#" + pointer
        }
        func sorted(_ records: [JSONValue]) -> [String: [JSONValue]] {
            Dictionary(grouping: records, by: place).mapValues { $0.sorted { $0.canonicalText < $1.canonicalText } }
        }
        let (want, have) = (sorted(expected), sorted(found))
        var differences: [JSONDifference] = []
        for key in Set(want.keys).union(have.keys).sorted() {
            let (wanted, had) = (want[key] ?? [], have[key] ?? [])
            for index in 0..<max(wanted.count, had.count) {
                let label = "record \(key)" + (max(wanted.count, had.count) > 1 ? " [\(index)]" : "") + " "
                let (one, other) = (index < wanted.count ? wanted[index] : nil, index < had.count ? had[index] : nil)
                if one == nil || other == nil {
                    differences.append(JSONDifference(pointer: label.dropLast() + "", expected: one, found: other))
                } else {
                    differences += JSONDifference.between(expected: one, found: other, at: label)
                }
            }
        }
        return differences
    }

    static func temporaryFolder() throws(StoryFailure) -> String {
        do {
            return try FileSystem.makeTemporaryFolder(prefix: "cairn-story")
        } catch {
            throw StoryFailure("cannot create a temporary folder for the story: \(error.message)")
        }
    }
}
