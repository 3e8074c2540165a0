import CairnCore
import CairnMerge
import CairnServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Git
import GitFormat

/// Several devices of one user doing seeded random work of the life-in-uk app against one
/// bare remote, in a random interleaving — exam attempts, book sections marked, the exam
/// summary's attempt counter raised, checkpoints, syncs, processes killed, offline periods —
/// then every device syncing until all are back online, and the invariants checked:
///
/// - every device on the remote's tree id;
/// - every exam attempt written (append-only) present, byte for byte;
/// - the attempt counter equal to the number of increments made on all devices;
/// - every book section as the last mark made of it on any device (the policy's decision:
///   nothing else lost), and every document valid under the set.
///
/// The schedule is drawn from the seed, so a failing seed replays the same operations.
public struct Simulation: Sendable {
    public var devices: Int
    public var steps: Int
    /// The life-in-uk schema set's files.
    public var schemaSet: SchemaSetFiles

    public init(devices: Int, steps: Int, schemaSet: SchemaSetFiles) {
        self.devices = devices
        self.steps = steps
        self.schemaSet = schemaSet
    }

    /// Runs the schedule of `seed` in `folder` (which it fills and leaves).
    public func run(seed: UInt64, in folder: String) throws(CairnError) -> SimulationReport {
        var random = SplitMix(seed: seed)
        var report = SimulationReport(seed: seed)
        let uid = "u1"
        try checkSchemaSet(uid: uid)
        _ = try Server.createRepositories(in: folder + "/server", uids: [uid], cairn: "cairn")
        let remote = try RemoteURL(folder + "/server/\(uid).git")
        let options = SyncOptions(retry: .none, sleep: { _ in })
        var homes: [Home] = []
        var stores: [Store] = []
        for device in 0..<devices {
            let home = Home(root: folder + "/d\(device)")
            homes.append(home)
            if device == 0 {
                let store = try home.createStore(uid, schemaSet: schemaSet)
                try store.setRemote(remote)
                try store.sync(options)
                stores.append(store)
            } else {
                stores.append(try home.cloneStore(from: remote, uid: uid, options: options))
            }
        }
        var offlineUntil = Array(repeating: 0, count: devices)
        var attempts: [DocumentPath: JSONValue] = [:]
        var marks: [DocumentPath: [String: (stamp: Int64, completed: Bool)]] = [:]
        var increments = 0
        var clock: Int64 = 1_000

        func note(_ device: Int, _ text: String) { report.schedule.append("d\(device) \(text)") }
        func synced(_ device: Int, _ result: SyncResult, _ what: String) {
            report.syncs += 1
            if case .merged = result.integration { report.merges += 1 }
            report.conflicts += result.conflicts.count
            let kind = switch result.integration {
            case .upToDate: "up to date"
            case .fastForward: "fast-forward"
            case .merged: "merged"
            }
            note(device, "\(what): \(kind), \(result.changedFiles.count) files in, \(result.conflicts.count) conflicts, \(result.pushedCommits) pushed")
        }

        for step in 0..<steps {
            let device = Int.random(in: 0..<devices, using: &random)
            let store = stores[device]
            clock += 1
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<20:
                let id = "d\(device)-\(report.writes)"
                let path = try DocumentPath.checked("users/\(uid)/examAttempts/\(id)")
                let value = JSONValue.object([
                    "attemptId": .string(id), "examId": .string("practice-1"),
                    "status": .string(Bool.random(using: &random) ? "passed" : "failed"),
                    "score": .integer(Int64.random(in: 0...100, using: &random)),
                ])
                try store.put(value, at: path)
                attempts[path] = try store.document(at: path)
                report.writes += 1
                note(device, "put \(path)")
            case 20..<45:
                let path = try DocumentPath.checked("users/\(uid)/books/b\(Int.random(in: 0..<2, using: &random))")
                let section = "s\(Int.random(in: 0..<6, using: &random))"
                let completed = Bool.random(using: &random)
                var sections = try store.document(at: path)?.field("sections")?.objectValue ?? [:]
                sections[section] = .object(["completed": .bool(completed), "updatedAt": .integer(clock)])
                try store.put(.object(["schemaVersion": .integer(1), "bookId": .string(path.id),
                                       "sections": .object(sections), "updatedAt": .integer(clock)]), at: path)
                marks[path, default: [:]][section] = (clock, completed)
                report.writes += 1
                note(device, "mark \(path)#\(section) \(completed) at \(clock)")
            case 45..<60:
                let path = try DocumentPath.checked("users/\(uid)/progress/exam")
                let entry = try store.document(at: path)?.field("examSummaries")?.field("practice-1")
                let count: Int64 = if case .integer(let value)? = entry?.field("attemptCount") { value } else { 0 }
                try store.put(.object(["schemaVersion": .integer(1), "examSummaries": .object(["practice-1": .object([
                    "attemptCount": .integer(count + 1),
                    "lastCompletedAt": .string("2026-11-22T10:00:00.\(clock)Z"),
                ])])]), at: path)
                increments += 1
                report.writes += 1
                note(device, "count \(count) → \(count + 1)")
            case 60..<70:
                try store.checkpoint()
                report.checkpoints += 1
                note(device, "checkpoint")
            case 70..<90:
                guard offlineUntil[device] <= step else {
                    note(device, "sync skipped (offline)")
                    continue
                }
                synced(device, try store.sync(options), "sync")
            case 90..<95:
                // The process dies: what it wrote stays pending, and a new process opens the store.
                stores[device] = try homes[device].openStore(uid)
                report.kills += 1
                note(device, "killed and reopened")
            default:
                let length = Int.random(in: 1...8, using: &random)
                offlineUntil[device] = step + length
                report.offlinePeriods += 1
                note(device, "offline for \(length) steps")
            }
        }
        // Back online: everyone syncs until the last one's work reached all.
        for _ in 0..<2 {
            for (device, store) in stores.enumerated() {
                synced(device, try store.sync(options), "final sync")
            }
        }
        try check(stores: stores, folder: folder, uid: uid, attempts: attempts, marks: marks,
                  increments: increments, report: &report)
        return report
    }

    /// Refuses a set that does not describe the documents the simulation writes.
    private func checkSchemaSet(uid: String) throws(CairnError) {
        let set: SchemaSet
        do {
            set = try SchemaSet(files: schemaSet.files)
        } catch {
            throw CairnError(.invalidInput, "the schema set \(schemaSet.name) cannot be used: \(error.description)", cause: error)
        }
        for (path, policy) in [("examAttempts/a", "append-only"), ("books/b", "entries"), ("progress/exam", "counter")] {
            guard set.kind(of: try DocumentPath.checked("users/\(uid)/\(path)")) != nil else {
                throw CairnError(.invalidInput, "cairn simulate plays the life-in-uk app's documents, and the set \(schemaSet.name) does not describe users/{uid}/\(path) (\(policy)); use --schema life-in-uk or a set derived from it")
            }
        }
    }

    private func check(stores: [Store], folder: String, uid: String, attempts: [DocumentPath: JSONValue],
                       marks: [DocumentPath: [String: (stamp: Int64, completed: Bool)]], increments: Int,
                       report: inout SimulationReport) throws(CairnError) {
        let server = try Store.openRemoteRepository(RemoteURL(folder + "/server/\(uid).git"))
        let expectedTree = try store0Tree(server)
        for (device, store) in stores.enumerated() {
            let tree = try store.translatingErrors("cannot read the tree") { try store.repository.headCommit()?.treeID }
            if tree != expectedTree {
                report.violations.append("d\(device) is on tree \(tree?.short ?? "-"), the remote on \(expectedTree?.short ?? "-")")
            }
        }
        let store = stores[0]
        for (path, value) in attempts.sorted(by: { $0.key < $1.key }) {
            let found = try store.document(at: path)
            if found.map({ !JSONValue.same($0, value) }) ?? true {
                report.violations.append("attempt \(path) is \(found?.canonicalText ?? "missing"), written as \(value.canonicalText)")
            }
        }
        let summary = try store.document(at: DocumentPath.checked("users/\(uid)/progress/exam"))
        let count = summary?.field("examSummaries")?.field("practice-1")?.field("attemptCount")
        if increments > 0, count != .integer(Int64(increments)) {
            report.violations.append("attemptCount is \(count?.canonicalText ?? "missing"), \(increments) increments were made")
        }
        for (path, sections) in marks {
            let book = try store.document(at: path)
            for (section, mark) in sections {
                let entry = book?.field("sections")?.field(section)
                if entry?.field("updatedAt") != .integer(mark.stamp) || entry?.field("completed") != .bool(mark.completed) {
                    report.violations.append("\(path)#\(section) is \(entry?.canonicalText ?? "missing"), last marked \(mark.completed) at \(mark.stamp)")
                }
            }
        }
        for (path, problems) in try store.validate() {
            report.violations.append("\(path) is not valid: \(problems.joined(separator: "; "))")
        }
    }

    private func store0Tree(_ server: Git.Repository) throws(CairnError) -> ObjectID? {
        do {
            guard let main = try server.reference("refs/heads/" + Store.branch) else { return nil }
            return try server.commit(main).treeID
        } catch {
            throw CairnError.git(error, doing: "cannot read the remote")
        }
    }
}
