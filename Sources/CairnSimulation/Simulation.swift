import CairnCore
import CairnMerge
import CairnMergeLaws
import CairnServer
import Git
import GitFormat

/// Several devices of one user doing seeded random work on the documents of any schema set
/// against one bare remote, in a random interleaving — documents created and edited as each
/// kind's policy expects (``DocumentGenerator``: new append-only documents, counters
/// incremented, entries stamped, `lww`/`highest` objects changed with their stamps raised,
/// `max`/`min` values moved, union elements added, leaves changed), documents deleted where
/// the policy allows, checkpoints, syncs, processes killed, offline periods — then every
/// device syncing until all are back online, and the invariants checked:
///
/// - every device on the remote's tree id;
/// - what each policy promises of every value written (``PolicyLedger``): append-only
///   documents byte for byte, counters the sum of the increments, each entry and each
///   `lww`/`highest` object as written with the greatest stamp, `max`/`min` the greatest and
///   smallest written, unions every element added;
/// - derived fields and counts as computed from the final documents, every document valid;
/// - every device's history and the server's pass `cairn verify`: each commit meets the
///   rules a push must meet, each merge is what the policies give.
///
/// A kind whose documents need a parent document (its path extends another kind's) is
/// written below a parent the device has, or its parent is created first. The schedule is
/// drawn from the seed (no dictionary order, no clock), and each device's clock — which
/// dates its checkpoints and merges — reads the step's time, so a seed replays the same
/// operations, commits and syncs, to the byte.
public struct Simulation: Sendable {
    public var devices: Int
    public var steps: Int
    public var schemaSet: SchemaSetFiles

    /// The devices' clocks at step 0, in milliseconds since 1970: 2024-03-01T00:00:00Z,
    /// after every stamp generated documents hold (``GeneratedTime``), so no stamp is from
    /// a device's future. Step `n` is `n` seconds later.
    static let clockStart: Int64 = 1_709_251_200_000

    public init(devices: Int, steps: Int, schemaSet: SchemaSetFiles) {
        self.devices = devices
        self.steps = steps
        self.schemaSet = schemaSet
    }

    /// The set, read; a set that cannot be read is invalid input.
    public func readSet() throws(CairnError) -> SchemaSet {
        try SchemaSet(reading: schemaSet)
    }

    /// The kinds the simulation leaves out, each with why (their documents cannot be generated).
    public func skippedKinds() throws(CairnError) -> [String] {
        try DocumentGenerator(set: readSet()).unsupported().map { "\($0.file) is left out: \($0.description)" }
    }

    /// Runs the schedule of `seed` in `folder` (which it fills and leaves).
    public func run(seed: UInt64, in folder: String) throws(CairnError) -> SimulationReport {
        var random = SplitMix(seed: seed)
        var report = SimulationReport(seed: seed)
        let uid = "u1"
        let set = try readSet()
        let generator = DocumentGenerator(set: set, uid: uid)
        let skipped = Set(generator.unsupported().map(\.file))
        let kinds = set.kinds.filter { !skipped.contains($0.file) }
        guard !kinds.isEmpty else {
            throw CairnError(
                .invalidInput,
                "no document of the schema set \(schemaSet.name) can be generated: \(try skippedKinds().joined(separator: "; "))")
        }
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
        var ledger = PolicyLedger(set: set)
        var offlineUntil = Array(repeating: 0, count: devices)
        let patterns = SimulatedPatterns(kinds: kinds)

        func note(_ device: Int, _ text: String) { report.schedule.append("d\(device) \(text)") }
        func setClock(_ store: Store, step: Int) {
            store.clock = { Self.clockStart + Int64(step) * 1_000 }
        }
        func synced(_ device: Int, _ result: SyncResult, _ what: String) {
            report.syncs += 1
            if case .merged = result.integration { report.merges += 1 }
            report.conflicts += result.conflicts.count
            let kind =
                switch result.integration {
                case .upToDate: "up to date"
                case .fastForward: "fast-forward"
                case .merged: "merged"
                }
            note(
                device,
                "\(what): \(kind), \(result.changedFiles.count) files in, \(result.conflicts.count) conflicts, \(result.pushedCommits) pushed"
            )
        }
        var generationFailed = false
        func generated<T>(_ make: () throws(GenerationError) -> T) throws(CairnError) -> T {
            do {
                return try make()
            } catch {
                generationFailed = true
                throw CairnError(.invalidInput, "cannot generate for the schema set \(schemaSet.name): \(error.description)", cause: error)
            }
        }

        // A store operation that fails (a merged document the server's hook refuses) is a
        // broken invariant of the schedule: reported with its seed, not a failure of the run.
        var place = "setting up"
        do {
            for step in 0..<steps {
                let device = Int.random(in: 0..<devices, using: &random)
                place = "step \(step + 1), d\(device)"
                let store = stores[device]
                setClock(store, step: step + 1)
                let time = Int64(step + 1)
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<60:
                    var kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
                    var existing = try patterns.documents(of: kind, in: store)
                    let creates = kind.policy.isAppendOnly || existing.isEmpty || Int.random(in: 0..<10, using: &random) < 3
                    if creates {
                        // Below a parent the device has, or the parent first.
                        var parentIDs: [String: String] = [:]
                        while let parent = patterns.parent(of: kind) {
                            let parents = try patterns.documents(of: parent, in: store)
                            guard let chosen = parents.randomElement(using: &random) else {
                                kind = parent
                                parentIDs = [:]
                                continue
                            }
                            parentIDs = parent.pattern.match(chosen) ?? [:]
                            break
                        }
                        existing = try patterns.documents(of: kind, in: store)
                        let fresh = kind.policy.isAppendOnly
                        let path = try generated { () throws(GenerationError) in
                            try generator.path(of: kind, ids: parentIDs, fresh: fresh, using: &random)
                        }
                        if !existing.contains(path) {
                            let document = try generated { () throws(GenerationError) in
                                try generator.document(of: kind, at: path, time: time, using: &random)
                            }
                            try store.put(document, at: path)
                            ledger.recordWrite(at: path, before: nil, after: try store.document(at: path) ?? document)
                            report.writes += 1
                            note(device, "create \(path)")
                            continue
                        }
                        guard !kind.policy.isAppendOnly else {
                            note(device, "create \(path) skipped (it exists)")
                            continue
                        }
                    }
                    guard let path = existing.randomElement(using: &random), let before = try store.document(at: path) else {
                        note(device, "nothing to edit")
                        continue
                    }
                    // A merge can leave a document its schema refuses (a union past its maxItems):
                    // no valid edit exists, and the final check names it.
                    if let problem = kind.validate(before, at: path).first {
                        note(device, "edit \(path) skipped (it breaks its schema: \(problem))")
                        continue
                    }
                    let edit = try generated { () throws(GenerationError) in
                        try generator.edit(before, of: kind, at: path, time: time, using: &random)
                    }
                    guard let edit else {
                        note(device, "edit \(path) skipped (nothing in it can change)")
                        continue
                    }
                    try store.put(edit.document, at: path)
                    ledger.recordWrite(at: path, before: before, after: try store.document(at: path) ?? edit.document)
                    report.writes += 1
                    note(device, "edit \(path) \(edit.changes.joined(separator: "; "))")
                case 60..<64:
                    // Deletes where the policy allows them, of documents no other kind lives below.
                    let deletable = kinds.filter { !$0.policy.isAppendOnly && !patterns.hasChildren($0) }
                    guard let kind = deletable.randomElement(using: &random),
                        let path = try patterns.documents(of: kind, in: store).randomElement(using: &random)
                    else {
                        note(device, "nothing to delete")
                        continue
                    }
                    try store.delete(path)
                    ledger.recordDelete(path)
                    report.deletes += 1
                    note(device, "delete \(path)")
                case 64..<72:
                    try store.checkpoint()
                    report.checkpoints += 1
                    note(device, "checkpoint")
                case 72..<90:
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
            for round in 0..<2 {
                for (device, store) in stores.enumerated() {
                    place = "final sync, d\(device)"
                    setClock(store, step: steps + 1 + round * devices + device)
                    synced(device, try store.sync(options), "final sync")
                }
            }
        } catch {
            if generationFailed { throw error }
            report.violations.append("\(place): \(error.message)")
            return report
        }
        try checkTrees(stores: stores, folder: folder, uid: uid, report: &report)
        var documents: [DocumentPath: JSONValue] = [:]
        for kind in set.kinds {
            for path in try patterns.documents(of: kind, in: stores[0]) {
                documents[path] = try stores[0].document(at: path)
            }
        }
        report.violations += ledger.violations(in: documents)
        report.promises = ledger.tally
        for (path, problems) in try stores[0].validate() {
            report.violations.append("\(path) is not valid: \(problems.joined(separator: "; "))")
        }
        try checkHistories(stores: stores, folder: folder, uid: uid, report: &report)
        return report
    }

    /// `cairn verify` of every device's history and the server's: each finding a violation.
    private func checkHistories(stores: [Store], folder: String, uid: String, report: inout SimulationReport) throws(CairnError) {
        for (device, store) in stores.enumerated() {
            report.violations += try store.verify().findings.map { "d\(device): cairn verify: \($0)" }
        }
        report.violations += try Store.verifyRepository(at: folder + "/server/\(uid).git").findings.map {
            "the server: cairn verify: \($0)"
        }
    }

    private func checkTrees(stores: [Store], folder: String, uid: String, report: inout SimulationReport) throws(CairnError) {
        let server = try Store.openRemoteRepository(RemoteURL(folder + "/server/\(uid).git"))
        let expectedTree = try remoteTree(server)
        for (device, store) in stores.enumerated() {
            let tree = try store.translatingErrors("cannot read the tree") { try store.repository.headCommit()?.treeID }
            if tree != expectedTree {
                report.violations.append("d\(device) is on tree \(tree?.short ?? "-"), the remote on \(expectedTree?.short ?? "-")")
            }
        }
    }

    private func remoteTree(_ server: Git.Repository) throws(CairnError) -> ObjectID? {
        do {
            guard let main = try server.reference("refs/heads/" + Store.branch) else { return nil }
            return try server.commit(main).treeID
        } catch {
            throw CairnError.git(error, doing: "cannot read the remote")
        }
    }
}
