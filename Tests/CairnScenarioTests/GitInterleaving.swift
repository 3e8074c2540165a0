import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// One seeded run of a phone whose store both Cairn and plain git commands change, beside a
/// tablet that syncs through the same remote.
///
/// Each device writes documents only under its own collection (`users/u1/phone`,
/// `users/u1/tablet`), so what each one must hold is known exactly: the model is the phone's
/// documents as `cairn put`, `cairn rm` and the git commands left them. git commands that keep
/// the working tree (stash and pop, add, soft and mixed resets, checkouts there and back,
/// commits by hand, amends, gc, repacks, split and whole indexes) keep the model; a hard reset
/// takes it back to the commit reset to, as git says it does; resets and amends touch only
/// checkpoints not pushed yet. After every step: nothing the model holds is lost, `git fsck
/// --strict` passes, each path is in the index once, and a checkpoint leaves `git status`
/// clean. At the end the devices sync until they agree, and hold both models.
final class GitInterleaving {
    let seed: UInt64
    private var random: SplitMix
    private let devices: Devices
    /// What the phone's documents must be, path → canonical JSON.
    private var phone: [String: String] = [:]
    private var tablet: [String: String] = [:]
    private var counter = 0
    /// The steps taken so far, to replay a failing run by its seed.
    private(set) var steps: [String] = []
    /// What went wrong, each with the steps before it.
    private(set) var failures: [String] = []

    static let phoneCollection = "users/u1/phone"
    static let tabletCollection = "users/u1/tablet"

    init(seed: UInt64) throws {
        self.seed = seed
        random = SplitMix(seed: seed)
        devices = try Devices()
        try devices.start("phone")
        try devices.clone("tablet")
    }

    /// Takes `count` random steps, checking after each, then converges the devices.
    func run(steps count: Int) throws {
        for _ in 0..<count {
            try step()
            try checkPhone()
            if !failures.isEmpty { return }
        }
        try converge()
    }

    // MARK: - Steps

    private func step() throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<18: try put(on: "phone")
        case 18..<24: try remove(on: "phone")
        case 24..<30: try checkpoint(scan: Bool.random(using: &random))
        case 30..<36: try sync("phone")
        case 36..<44: try put(on: "tablet")
        case 44..<48: try sync("tablet")
        case 48..<53: try stashAndPop()
        case 53..<57: try git("add", "-A")
        case 57..<65: try reset()
        case 65..<70: try checkoutAndBack()
        case 70..<74: try switchAndBack()
        case 74..<80: try commitByHand()
        case 80..<85: try amend()
        case 85..<88: try git("gc", "-q")
        case 88..<91: try git("repack", "-q", "-adf")
        case 91..<95: try git("update-index", "--split-index")
        default: try git("update-index", "--no-split-index")
        }
    }

    private func nextValue(_ device: String) -> String {
        counter += 1
        return "{\n  \"by\": \"\(device)\",\n  \"n\": \(counter)\n}\n"
    }

    /// A path of the device's collection: a document, or one of its subcollection.
    private func somePath(_ device: String) -> String {
        let collection = device == "phone" ? Self.phoneCollection : Self.tabletCollection
        let document = "\(collection)/d\(Int.random(in: 0..<6, using: &random))"
        return Bool.random(using: &random) ? document : "\(document)/items/i\(Int.random(in: 0..<3, using: &random))"
    }

    private func put(on device: String) throws {
        let path = somePath(device)
        let value = nextValue(device)
        let result = try devices.on(device, "put", path, input: value)
        record("\(device): cairn put \(path)", result)
        guard result.status == 0 else { return expectFailure("put \(path) failed: \(result.stderr)") }
        if device == "phone" { phone[path] = value } else { tablet[path] = value }
    }

    private func remove(on device: String) throws {
        guard let path = phone.keys.sorted().randomElement(using: &random) else { return }
        let recursive = Bool.random(using: &random)
        let result = try devices.on(device, recursive ? ["rm", "-r", path] : ["rm", path])
        record("\(device): cairn rm\(recursive ? " -r" : "") \(path)", result)
        // Without -r, a document with subcollections is refused and stays.
        if !recursive, phone.keys.contains(where: { $0.hasPrefix(path + "/") }) {
            if result.status != 1 { expectFailure("rm \(path) of a document with subcollections: exit \(result.status)") }
            return
        }
        guard result.status == 0 else { return expectFailure("rm \(path) failed: \(result.stderr)") }
        phone[path] = nil
        if recursive { phone = phone.filter { !$0.key.hasPrefix(path + "/") } }
    }

    private func checkpoint(scan: Bool) throws {
        let result = try devices.on("phone", scan ? ["checkpoint", "--scan"] : ["checkpoint"])
        record("phone: cairn checkpoint\(scan ? " --scan" : "")", result)
        guard result.status == 0 else { return expectFailure("checkpoint failed: \(result.stderr)") }
        try checkCommitted()
    }

    private func sync(_ device: String) throws {
        let result = try devices.on(device, "sync")
        record("\(device): cairn sync", result)
        guard result.status == 0 else { return expectFailure("sync on \(device) failed: \(result.stderr)") }
        if device == "phone" { try checkCommitted() }
    }

    private func stashAndPop() throws {
        let stashed = try run(["stash"])
        guard stashed.status == 0 else { return expectFailure("git stash: \(stashed.stderr)") }
        if stashed.stdout.contains("No local changes") { return }
        let popped = try run(["stash", "pop"])
        if popped.status != 0 { expectFailure("git stash pop: \(popped.stdout)\(popped.stderr)") }
    }

    /// `git reset`: soft or mixed to the parent of a checkpoint not pushed yet, or hard (to
    /// HEAD, or to such a parent), which takes the phone's tracked documents back to that
    /// commit.
    private func reset() throws {
        let mode = ["--soft", "--mixed", "--hard"].randomElement(using: &random)!
        let back = try headIsUnpushed() && Bool.random(using: &random)
        if mode != "--hard" && !back { return }
        let tracked = Set(try run(["ls-files"], check: true).stdout.split(separator: "\n").map(String.init))
        let result = try run(["reset", "-q", mode] + (back ? ["HEAD~1"] : []))
        guard result.status == 0 else { return expectFailure("git reset: \(result.stderr)") }
        // A hard reset takes tracked files back to the commit and leaves untracked ones.
        if mode == "--hard" {
            phone = try committedDocuments("HEAD").merging(phone.filter { !tracked.contains($0.key + ".json") }) { $1 }
        }
    }

    /// `git checkout HEAD~1`, Cairn's writes refused while detached, then `git checkout main`.
    /// Only from a state git takes there and back unchanged: with local changes to tracked
    /// files, one that matches HEAD~1 (a deletion of a file HEAD~1 lacks) is dropped on the
    /// way back, as git documents.
    private func checkoutAndBack() throws {
        guard try run(["rev-parse", "-q", "--verify", "HEAD~1"], check: true).status == 0,
            try run(["status", "--porcelain", "--untracked-files=no"], check: true).stdout.isEmpty
        else { return }
        guard try run(["checkout", "-q", "HEAD~1"]).status == 0 else { return }
        try expectRefusedOffBranch()
        let back = try run(["checkout", "-q", "main"])
        if back.status != 0 { expectFailure("git checkout main: \(back.stderr)") }
    }

    /// `git switch -c side`, Cairn's writes refused there, then `git switch main`.
    private func switchAndBack() throws {
        let name = "side\(counter)"
        guard try run(["switch", "-q", "-c", name]).status == 0 else { return expectFailure("git switch -c") }
        try expectRefusedOffBranch()
        let back = try run(["switch", "-q", "main"])
        if back.status != 0 { expectFailure("git switch main: \(back.stderr)") }
    }

    private func expectRefusedOffBranch() throws {
        let path = somePath("phone")
        let before = try snapshot()
        for arguments in [["put", path], ["checkpoint"], ["sync"]] {
            let result = try devices.on("phone", arguments, input: nextValue("phone"))
            record("phone (HEAD off main): cairn \(arguments.joined(separator: " "))", result)
            if result.status != 1 || !result.stderr.contains("switch main") {
                expectFailure("cairn \(arguments[0]) off main: exit \(result.status), \(result.stderr)")
            }
        }
        if try snapshot() != before { expectFailure("a refused command off main changed the store") }
    }

    /// A document written and committed with plain git.
    private func commitByHand() throws {
        let path = "\(Self.phoneCollection)/h\(Int.random(in: 0..<3, using: &random))"
        let value = nextValue("phone")
        try write(value, to: path)
        try git("add", path + ".json")
        let result = try run(["-c", "user.name=Hand", "-c", "user.email=hand@example.invalid", "commit", "-q", "-m", "By hand"])
        guard result.status == 0 else { return expectFailure("git commit: \(result.stdout)\(result.stderr)") }
        phone[path] = value
    }

    /// `git commit --amend` of a checkpoint not pushed yet, with a document edited by hand.
    private func amend() throws {
        guard try headIsUnpushed() else { return }
        let path = "\(Self.phoneCollection)/h\(Int.random(in: 0..<3, using: &random))"
        let value = nextValue("phone")
        try write(value, to: path)
        try git("add", path + ".json")
        let result = try run([
            "-c", "user.name=Hand", "-c", "user.email=hand@example.invalid", "commit", "-q", "--amend", "-m", "Amended by hand",
        ])
        guard result.status == 0 else { return expectFailure("git commit --amend: \(result.stderr)") }
        phone[path] = value
    }

    private func git(_ arguments: String...) throws {
        let result = try run(arguments)
        if result.status != 0 { expectFailure("git \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    // MARK: - Checks

    /// After every step, on the store's branch: the model's documents are the files, the
    /// repository is sound, and no path is staged twice.
    private func checkPhone() throws {
        let fsck = try run(["fsck", "--strict", "--no-progress"], check: true)
        if fsck.status != 0 { expectFailure("git fsck --strict: \(fsck.stdout)\(fsck.stderr)") }
        let staged = try run(["ls-files"], check: true).stdout.split(separator: "\n")
        if Set(staged).count != staged.count { expectFailure("a path is staged twice: \(staged)") }
        let files = try workingDocuments()
        if files != phone { expectFailure("the phone's documents differ from what was written: \(difference(phone, files))") }
    }

    /// After a checkpoint or a sync: the last checkpoint holds the model, and git agrees the
    /// working tree and the index are those of the last checkpoint.
    private func checkCommitted() throws {
        let committed = try committedDocuments("HEAD")
        if committed != phone { expectFailure("the last checkpoint differs from what was written: \(difference(phone, committed))") }
        let status = try run(["status", "--porcelain"], check: true)
        if status.stdout != "" { expectFailure("git status after a checkpoint: \(status.stdout)") }
    }

    /// The devices sync until they agree; each then holds both models.
    private func converge() throws {
        for device in ["phone", "tablet", "phone"] {
            let result = try devices.on(device, "sync")
            record("\(device): cairn sync (converging)", result)
            if result.status != 0 { return expectFailure("final sync on \(device): \(result.stderr)") }
        }
        let expected = phone.merging(tablet) { $1 }
        for device in ["phone", "tablet"] {
            let held = try committedDocuments("HEAD", device: device, under: "users/u1")
            if held != expected { expectFailure("\(device) after converging: \(difference(expected, held))") }
        }
        try devices.expectConverged(["phone", "tablet"])
    }

    // MARK: - Helpers

    /// Runs git in a device's store; a step (not a check) is logged.
    private func run(_ arguments: [String], device: String = "phone", check: Bool = false) throws -> ProcessResult {
        let result = try runProcess("/usr/bin/git", ["-C", devices.store(device)] + arguments)
        if !check { steps.append("\(device): git \(arguments.joined(separator: " ")) → \(result.status)") }
        return result
    }

    private func record(_ step: String, _ result: ProcessResult) {
        steps.append("\(step) → \(result.status)")
    }

    private func expectFailure(_ what: String) {
        failures.append("seed \(seed): \(what)\nsteps:\n  " + steps.joined(separator: "\n  "))
    }

    private func headIsUnpushed() throws -> Bool {
        guard try run(["rev-parse", "-q", "--verify", "HEAD~1"], check: true).status == 0 else { return false }
        return try run(["merge-base", "--is-ancestor", "HEAD", "refs/remotes/origin/main"], check: true).status != 0
    }

    private func write(_ value: String, to path: String) throws {
        let file = devices.store("phone") + "/" + path + ".json"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(value.utf8).write(to: URL(fileURLWithPath: file))
    }

    /// The phone's documents in its working tree.
    private func workingDocuments() throws -> [String: String] {
        let root = devices.store("phone")
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root + "/" + Self.phoneCollection)
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".json") else { continue }
            let path = Self.phoneCollection + "/" + name
            found[String(path.dropLast(5))] = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
        }
        return found
    }

    /// The documents of a commit below a folder (the phone's collection by default).
    private func committedDocuments(
        _ revision: String, device: String = "phone",
        under folder: String = phoneCollection
    ) throws -> [String: String] {
        let names = try run(["ls-tree", "-r", "--name-only", revision, "--", folder], device: device, check: true).stdout
        var found: [String: String] = [:]
        for name in names.split(separator: "\n") where name.hasSuffix(".json") && name.hasPrefix(folder + "/") {
            found[String(name.dropLast(5))] = try run(["show", "\(revision):\(name)"], device: device, check: true).stdout
        }
        return found
    }

    private func snapshot() throws -> [String] {
        let files = try workingDocuments().sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return files + [
            try run(["rev-parse", "HEAD", "refs/heads/main"], check: true).stdout, try run(["ls-files", "-s"], check: true).stdout,
        ]
    }

    private func difference(_ expected: [String: String], _ found: [String: String]) -> String {
        let keys = Set(expected.keys).union(found.keys).sorted().filter { expected[$0] != found[$0] }
        return keys.map {
            "\($0): expected \(expected[$0].map { String(reflecting: $0) } ?? "none"), found \(found[$0].map { String(reflecting: $0) } ?? "none")"
        }
        .joined(separator: "; ")
    }
}
