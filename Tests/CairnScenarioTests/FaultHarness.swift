import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation

/// Runs one scenario's command with a fault at each of its file-system calls and checks the
/// store's promises after each: the repository is sound, HEAD is the old commit or the new
/// one, no document is lost or half written, and the next commands work unaided.
///
/// The template (the stores before the command) is built once; each fault starts from a
/// copy of it. What the command should leave — its trees and its files — comes from a run
/// without faults: trees and canonical documents are the same bytes every time.
///
/// A harness is built by one task and then used by one task at a time (never two at once),
/// which is what makes handing it from one to the other safe.
final class FaultHarness: @unchecked Sendable {
    let scenario: FaultScenario
    let site: FaultSite
    private let template: String
    private let trace: String

    /// The calls of each kind the command made in the run without faults.
    private(set) var calls: SyscallTracer.Calls = [:]
    /// Device `a`'s files before the command, after it, and after its follow-up.
    private var before: [String: Data] = [:]
    private var after: [String: Data] = [:]
    private var final: [String: Data] = [:]
    /// The trees HEAD may have after a fault: the old one, the command's (and, for a sync that
    /// checkpoints first, the checkpoint's).
    private var allowedTrees: Set<String> = []
    /// The trees a failed sync may leave: the old one, or its checkpoint's.
    private var startTrees: Set<String> = []
    /// The tree the command leaves (after its follow-up).
    private var finalTree = ""

    /// Builds the template in `folder` (which must be empty or missing) and runs the command
    /// once without faults.
    init(_ scenario: FaultScenario, in folder: String, seed: UInt64) throws {
        self.scenario = scenario
        site = FaultSite(path: folder + "/site")
        template = folder + "/template"
        trace = folder + "/trace"
        try FileManager.default.createDirectory(atPath: site.path, withIntermediateDirectories: true)
        var random = SplitMix(seed: seed)
        try scenario.prepare(site, &random)
        try site.save(to: template)

        before = site.files("a").documents
        guard let oldTree = try site.resolve("a", "HEAD^{tree}") else { throw FaultSiteError(message: "no HEAD in the template") }
        allowedTrees = [oldTree]
        if scenario.syncs {
            try site.must("a", "checkpoint")
            allowedTrees.insert(try site.resolve("a", "HEAD^{tree}") ?? oldTree)
            try site.restore(from: template)
        }
        startTrees = allowedTrees

        let clean = try SyscallTracer.run(
            CLI.executable, site.arguments("a", scenario.command), input: scenario.input,
            environment: FaultSite.environment, fault: nil, trace: trace)
        guard clean.status == 0 else { throw FaultSiteError(message: "\(scenario) without faults: \(clean.stderr)") }
        calls = try SyscallTracer.calls(inTrace: trace)
        if let wrong = try scenario.confirm(site) { throw FaultSiteError(message: "\(scenario) without faults: \(wrong)") }
        after = site.files("a").documents
        allowedTrees.insert(try site.resolve("a", "HEAD^{tree}") ?? oldTree)
        for followUp in scenario.followUp {
            let result = try site.cairn("a", followUp)
            guard result.status == 0 else { throw FaultSiteError(message: "\(followUp) without faults: \(result.stderr)") }
        }
        final = site.files("a").documents
        finalTree = try site.resolve("a", "HEAD^{tree}") ?? ""
    }

    /// Every point of the command: the k-th call of each kind, for every k it reached.
    func points(error: (String) -> String? = { _ in nil }) -> [SyscallTracer.Fault] {
        SyscallTracer.kinds.flatMap { kind in
            (calls[kind] ?? []).indices.map { SyscallTracer.Fault(call: kind, occurrence: $0 + 1, error: error(kind)) }
        }
    }

    /// Kills the command at `fault`, then checks the store and recovers it. Returns false when
    /// the run never reached the point.
    func crash(at fault: SyscallTracer.Fault, into tally: inout FaultTally) throws -> Bool {
        try site.restore(from: template)
        let outcome = try SyscallTracer.run(
            CLI.executable, site.arguments("a", scenario.command), input: scenario.input,
            environment: FaultSite.environment, fault: fault, trace: trace)
        guard outcome.killed else { return false }
        var problems: [String] = []
        var lost = false
        try checkInterrupted(&problems, &lost)
        try checkRecovery(&problems, &lost)
        record(fault, problems, lost, into: &tally)
        return true
    }

    /// Fails the call at `fault` with its error, then checks what the command said and left,
    /// and that a plain retry succeeds. Returns false when the run never reached the point.
    func fail(at fault: SyscallTracer.Fault, into tally: inout FaultTally) throws -> Bool {
        try site.restore(from: template)
        let outcome = try SyscallTracer.run(
            CLI.executable, site.arguments("a", scenario.command), input: scenario.input,
            environment: FaultSite.environment, fault: fault, trace: trace)
        guard outcome.injected else { return false }
        var problems: [String] = []
        var lost = false
        if outcome.killed {
            problems.append("the command was killed")
        } else if outcome.status == 0 {
            // The failed call was tried again, or it only cut the output short: the work is done.
            tally.succeeded += 1
            tally.succeededAt.append(fault.description)
            if try site.resolve("a", "HEAD^{tree}").map(allowedTrees.contains) != true {
                problems.append("exited 0, but HEAD is on none of the expected trees")
            }
            let files = site.files("a").documents
            if files != after {
                problems.append("exited 0, but its files are not what the command writes: \(differences(files, after))")
            }
        } else {
            let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            tally.messages.append("\(fault): " + outcome.stderr.replacingOccurrences(of: site.path, with: "…"))
            if lines.count == 1, lines[0].hasPrefix("cairn: "), Self.explains(lines[0], fault) {
                tally.failedClearly += 1
            } else {
                problems.append("exited \(outcome.status) without one clear line naming the failure: \(outcome.stderr.debugDescription)")
            }
            // A failed sync goes back to where it started (its checkpoint kept), files too.
            if scenario.syncs {
                if try site.resolve("a", "HEAD^{tree}").map(startTrees.contains) != true {
                    problems.append("the failed sync did not go back to the commit it started from")
                }
                let files = site.files("a").documents
                if files != before { problems.append("the failed sync left files changed: \(differences(files, before))") }
            }
        }
        let temporary = site.files("a").temporary
        if !temporary.isEmpty { problems.append("left temporary files: \(temporary)") }
        try checkInterrupted(&problems, &lost)
        try checkRecovery(&problems, &lost)
        record(fault, problems, lost, into: &tally)
        return true
    }

    /// Whether an error line says what failed — the system's reason for the injected error —
    /// and what to do (every hint ends in "try again").
    static func explains(_ line: Substring, _ fault: SyscallTracer.Fault) -> Bool {
        let reason =
            switch fault.error {
            case "ENOSPC": "No space left on device"
            case "EIO": "Input/output error"
            default: ""
            }
        return line.contains(reason) && line.contains("try again")
    }

    private func record(_ fault: SyscallTracer.Fault, _ problems: [String], _ lost: Bool, into tally: inout FaultTally) {
        tally.points[fault.call, default: 0] += 1
        if lost { tally.losses += 1 }
        tally.problems += problems.map { "\(scenario) at \(fault): \($0)" }
    }

    /// Right after the fault: the repositories pass `git fsck --full`, HEAD is on an expected
    /// tree, and every file is its old or its new content.
    private func checkInterrupted(_ problems: inout [String], _ lost: inout Bool) throws {
        try checkSound("after the fault", &problems)
        if try site.resolve("a", "HEAD^{tree}").map(allowedTrees.contains) != true {
            problems.append("HEAD is neither the old commit nor the new one")
        }
        let files = site.files("a").documents
        for path in Set(before.keys).union(after.keys).union(files.keys) {
            let now = files[path]
            guard now != before[path], now != after[path] else { continue }
            lost = true
            problems.append(
                "\(path) is neither its old nor its new content: \(now.map { String(decoding: $0, as: UTF8.self) }.debugDescription)")
        }
    }

    /// The command again, then its follow-up: both succeed, and the store ends as the run
    /// without faults left it (for a sync, the remote too, and the other device converges).
    private func checkRecovery(_ problems: inout [String], _ lost: inout Bool) throws {
        let again = try site.cairn("a", scenario.command, input: scenario.input)
        if again.status != 0, !(scenario.retryMayFindItDone && again.stderr.contains("there is no document")) {
            problems.append("the command failed when run again: \(again.stderr)")
        }
        for followUp in scenario.followUp {
            let result = try site.cairn("a", followUp)
            if result.status != 0 { problems.append("\(followUp.joined(separator: " ")) failed afterwards: \(result.stderr)") }
        }
        let files = site.files("a").documents
        if files != final {
            lost = true
            problems.append("the files differ from the run without faults: \(differences(files, final))")
        }
        if try site.resolve("a", "HEAD^{tree}") != finalTree {
            problems.append("HEAD is not on the expected tree after recovery")
        }
        if try !site.git("a", "status", "--porcelain").stdout.isEmpty {
            problems.append("git status is not clean after recovery")
        }
        try checkSound("after recovery", &problems)
        guard scenario.syncs else { return }
        if try site.resolveRemote("main^{tree}") != finalTree {
            problems.append("the remote's main is not on the expected tree after recovery")
        }
        let other = try site.cairn("b", ["sync"])
        if other.status != 0 { problems.append("the other device's sync failed: \(other.stderr)") }
        if try site.resolve("b", "HEAD^{tree}") != finalTree {
            problems.append("the other device did not converge")
        }
    }

    /// `git fsck --full` on device `a`'s store and, for a sync, on the remote.
    private func checkSound(_ when: String, _ problems: inout [String]) throws {
        let local = try site.git("a", "fsck", "--full", "--no-progress")
        if local.status != 0 { problems.append("git fsck failed \(when): \(local.stderr)") }
        guard scenario.syncs else { return }
        let remote = try site.gitRemote("fsck", "--full", "--no-progress")
        if remote.status != 0 { problems.append("git fsck of the remote failed \(when): \(remote.stderr)") }
    }

    private func differences(_ found: [String: Data], _ expected: [String: Data]) -> [String] {
        Set(found.keys).union(expected.keys).filter { found[$0] != expected[$0] }.sorted()
    }
}
