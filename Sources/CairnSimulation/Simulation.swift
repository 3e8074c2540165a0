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
        let uid = "u1"
        let set = try readSet()
        let skipped = Set(DocumentGenerator(set: set, uid: uid).unsupported().map(\.file))
        let kinds = set.kinds.filter { !skipped.contains($0.file) }
        guard !kinds.isEmpty else {
            throw CairnError(
                .invalidInput,
                "no document of the schema set \(schemaSet.name) can be generated: \(try skippedKinds().joined(separator: "; "))")
        }
        _ = try Server.createRepositories(in: folder + "/server", uids: [uid], cairn: "cairn")
        let run = SimulationRun(self, seed: seed, set: set, kinds: kinds, uid: uid)
        try run.setUp(remote: try RemoteURL(folder + "/server/\(uid).git"), in: folder)
        // A store operation that fails (a merged document the server's hook refuses) is a
        // broken invariant of the schedule: reported with its seed, not a failure of the run.
        do {
            for step in 0..<steps { try run.step(step) }
            try run.syncAll()
        } catch {
            if run.generationFailed { throw error }
            run.report.violations.append("\(run.place): \(error.message)")
            return run.report
        }
        var report = run.report
        let stores = run.stores
        let patterns = run.patterns
        try checkTrees(stores: stores, folder: folder, uid: uid, report: &report)
        var documents: [DocumentPath: JSONValue] = [:]
        for kind in set.kinds {
            for path in try patterns.documents(of: kind, in: stores[0]) {
                documents[path] = try stores[0].document(at: path)
            }
        }
        report.violations += run.ledger.violations(in: documents)
        report.promises = run.ledger.tally
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
