import CairnCore
import CairnMerge
import CairnMergeLaws
import CairnSystem

/// One run of a ``Simulation``'s schedule: the devices' stores, the seed's random numbers,
/// what each policy promised of the values written (``PolicyLedger``) and the report, with a
/// method for each kind of step. A step draws its numbers in a fixed order, so a seed replays
/// the same operations.
final class SimulationRun {
    let simulation: Simulation
    let uid: String
    let kinds: [SchemaSet.Kind]
    let generator: DocumentGenerator
    let patterns: SimulatedPatterns
    let options = SyncOptions(retry: .none, sleep: { _ in })
    var random: SplitMix
    var report: SimulationReport
    var homes: [Home] = []
    var stores: [Store] = []
    var ledger: PolicyLedger
    /// The step until which each device is offline.
    var offlineUntil: [Int]
    /// Whether a document could not be generated: a failure of the run, not a finding.
    var generationFailed = false
    /// Where the run is, for a violation's line.
    var place = "setting up"

    init(_ simulation: Simulation, seed: UInt64, set: SchemaSet, kinds: [SchemaSet.Kind], uid: String) {
        self.simulation = simulation
        self.uid = uid
        self.kinds = kinds
        generator = DocumentGenerator(set: set, uid: uid)
        patterns = SimulatedPatterns(kinds: kinds)
        random = SplitMix(seed: seed)
        report = SimulationReport(seed: seed)
        ledger = PolicyLedger(set: set)
        offlineUntil = Array(repeating: 0, count: simulation.devices)
    }

    /// The first device makes the store and syncs it to `remote`; the others clone it.
    func setUp(remote: RemoteURL, in folder: String) throws(CairnError) {
        for device in 0..<simulation.devices {
            let home = Home(root: folder + "/d\(device)")
            homes.append(home)
            if device == 0 {
                let store = try home.createStore(uid, schemaSet: simulation.schemaSet)
                try store.setRemote(remote)
                try store.sync(options)
                stores.append(store)
            } else {
                stores.append(try home.cloneStore(from: remote, uid: uid, options: options))
            }
        }
    }

    /// Step `step` (from 0): a random device writes (60 in 100), deletes (4), checkpoints
    /// (8), syncs (18), is killed and reopened (5), or goes offline (5).
    func step(_ step: Int) throws(CairnError) {
        let device = Int.random(in: 0..<simulation.devices, using: &random)
        place = "step \(step + 1), d\(device)"
        let store = stores[device]
        setClock(store, step: step + 1)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<60:
            try write(on: device, at: Int64(step + 1))
        case 60..<64:
            try delete(on: device)
        case 64..<72:
            try store.checkpoint()
            report.checkpoints += 1
            note(device, "checkpoint")
        case 72..<90:
            guard offlineUntil[device] <= step else {
                note(device, "sync skipped (offline)")
                return
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

    /// Back online: every device syncs, twice round, until the last one's work reached all.
    func syncAll() throws(CairnError) {
        for round in 0..<2 {
            for (device, store) in stores.enumerated() {
                place = "final sync, d\(device)"
                setClock(store, step: simulation.steps + 1 + round * simulation.devices + device)
                synced(device, try store.sync(options), "final sync")
            }
        }
    }

    /// Creates a document of a random kind (below a parent the device has, or the parent
    /// first), or edits one as its policy expects.
    private func write(on device: Int, at time: Int64) throws(CairnError) {
        let store = stores[device]
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
            let chosenKind = kind
            let path = try generated { () throws(GenerationError) in
                try generator.path(of: chosenKind, ids: parentIDs, fresh: fresh, using: &random)
            }
            if !existing.contains(path) {
                let document = try generated { () throws(GenerationError) in
                    try generator.document(of: chosenKind, at: path, time: time, using: &random)
                }
                try store.put(document, at: path)
                ledger.recordWrite(at: path, before: nil, after: try store.document(at: path) ?? document)
                report.writes += 1
                note(device, "create \(path)")
                return
            }
            guard !kind.policy.isAppendOnly else {
                note(device, "create \(path) skipped (it exists)")
                return
            }
        }
        try edit(on: device, kind: kind, among: existing, at: time)
    }

    /// Edits one of `existing`, documents of `kind`, as its policy expects.
    private func edit(on device: Int, kind: SchemaSet.Kind, among existing: [DocumentPath], at time: Int64) throws(CairnError) {
        let store = stores[device]
        guard let path = existing.randomElement(using: &random), let before = try store.document(at: path) else {
            note(device, "nothing to edit")
            return
        }
        // A merge can leave a document its schema refuses (a union past its maxItems):
        // no valid edit exists, and the final check names it.
        if let problem = kind.validate(before, at: path).first {
            note(device, "edit \(path) skipped (it breaks its schema: \(problem))")
            return
        }
        let edit = try generated { () throws(GenerationError) in
            try generator.edit(before, of: kind, at: path, time: time, using: &random)
        }
        guard let edit else {
            note(device, "edit \(path) skipped (nothing in it can change)")
            return
        }
        try store.put(edit.document, at: path)
        ledger.recordWrite(at: path, before: before, after: try store.document(at: path) ?? edit.document)
        report.writes += 1
        note(device, "edit \(path) \(edit.changes.joined(separator: "; "))")
    }

    /// Deletes a document where its policy allows it, of a kind no other kind lives below.
    private func delete(on device: Int) throws(CairnError) {
        let store = stores[device]
        let deletable = kinds.filter { !$0.policy.isAppendOnly && !patterns.hasChildren($0) }
        guard let kind = deletable.randomElement(using: &random),
            let path = try patterns.documents(of: kind, in: store).randomElement(using: &random)
        else {
            note(device, "nothing to delete")
            return
        }
        try store.delete(path)
        ledger.recordDelete(path)
        report.deletes += 1
        note(device, "delete \(path)")
    }

    private func note(_ device: Int, _ text: String) { report.schedule.append("d\(device) \(text)") }

    private func setClock(_ store: Store, step: Int) {
        store.clock = { Simulation.clockStart + Int64(step) * 1_000 }
    }

    private func synced(_ device: Int, _ result: SyncResult, _ what: String) {
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
            "\(what): \(kind), \(result.changedFiles.count) files in, \(result.conflicts.count) conflicts, \(result.pushedCommits) pushed")
    }

    private func generated<T>(_ make: () throws(GenerationError) -> T) throws(CairnError) -> T {
        do {
            return try make()
        } catch {
            generationFailed = true
            throw CairnError(
                .invalidInput, "cannot generate for the schema set \(simulation.schemaSet.name): \(error.description)", cause: error)
        }
    }
}
