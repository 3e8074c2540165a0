import CairnCore
import CairnMerge
import CairnSystem

/// One of the two hooks git starts in a repository of `cairn server init`, as a program runs
/// it: `cairn-hook pre-receive` (the small program the hook scripts start) and `cairn hook
/// pre-receive` (the tool, which repositories made before that program existed still name)
/// do the same through this.
public enum ReceiveHook: String, CaseIterable, Sendable {
    case preReceive = "pre-receive"
    case postReceive = "post-receive"

    /// What a run of the hook has to say: lines for standard error (git passes them to the
    /// pusher) and the exit status (not 0: git refuses the push, for the pre-receive hook).
    public struct Outcome: Sendable, Equatable {
        public var lines: [String]
        public var status: Int32
    }

    /// The variables the hooks read: the pusher the web server or gitolite names, and the
    /// file to report to.
    public static let variables = ["REMOTE_USER", "GL_USER", HookReport.variable]

    /// Runs the hook on git's update lines (`<old> <new> <ref>` per line) with the variables
    /// git and the web server gave it, and reports its time to the file ``HookReport``
    /// names. `wording` words an error and its remedy for the pusher.
    public func run(
        _ input: String, environment: [String: String],
        wording: (CairnError) -> String = { $0.message }
    ) -> Outcome {
        let started = Syscalls.monotonicSeconds()
        switch self {
        case .preReceive:
            var refusal: String?
            var warning: String?
            do {
                let hook = try PreReceiveHook(environment: environment)
                do {
                    try hook.check(input)
                    warning = hook.markSweeps(input)
                } catch {
                    refusal = wording(error)
                }
            } catch {
                refusal = wording(error)
            }
            let lines = refusal.map { $0.split(separator: "\n").map(String.init) } ?? []
            HookReport(
                hook: rawValue, seconds: Syscalls.monotonicSeconds() - started, cpuSeconds: Syscalls.processCPUSeconds(),
                refusedRules: lines.map(PushRefusalRule.label)
            ).append(environment: environment)
            return Outcome(lines: lines + (warning.map { [$0] } ?? []), status: refusal == nil ? 0 : 1)
        case .postReceive:
            defer {
                HookReport(
                    hook: rawValue, seconds: Syscalls.monotonicSeconds() - started,
                    cpuSeconds: Syscalls.processCPUSeconds()
                ).append(environment: environment)
            }
            do {
                let removed = try PostReceiveHook().run(input)
                return Outcome(
                    lines: removed.isEmpty ? [] : ["removed \(removed.count) asset(s) no document points to any more"], status: 0)
            } catch {
                // The push is in whatever happens here: say what was not removed.
                return Outcome(lines: [wording(error)], status: 1)
            }
        }
    }
}
