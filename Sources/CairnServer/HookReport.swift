import CairnCore
import CairnMerge

/// What a hook tells the server that ran git for a request (`cairn server run`), through the
/// file the variable `CAIRN_HOOK_REPORT` names: which hook ran, how long it took and the CPU
/// its process spent, and, for a push refused, the rule of each refusal. One JSON line per hook run, appended: the server
/// counts pushes by rule and times the hooks without reading git's answer to the device.
public struct HookReport: Sendable, Hashable {
    /// The variable that names the file a hook reports to; unset, hooks report nothing.
    public static let variable = "CAIRN_HOOK_REPORT"

    /// `pre-receive` or `post-receive`.
    public var hook: String
    /// How long the hook ran, in seconds.
    public var seconds: Double
    /// The CPU its process spent, from its start (the program's loading included), in seconds.
    public var cpuSeconds: Double
    /// The rule of each refusal (``PushRefusalRule``); empty when the push was accepted.
    public var refusedRules: [String]

    public init(hook: String, seconds: Double, cpuSeconds: Double = 0, refusedRules: [String] = []) {
        self.hook = hook
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        self.refusedRules = refusedRules
    }

    /// Appends the report to the file `environment` names, if it names one; a file that
    /// cannot be written loses the report, never the push.
    public func append(environment: [String: String]) {
        guard let path = environment[Self.variable], !path.isEmpty else { return }
        let line =
            Array(
                JSONValue.object([
                    "hook": .string(hook), "seconds": .double(seconds), "cpu": .double(cpuSeconds),
                    "refused": .array(refusedRules.map { .string($0) }),
                ]).inlineText.utf8) + [UInt8(ascii: "\n")]
        try? FileSystem.appendLines(line, to: path)
    }

    /// The reports in the file at `path`, in the order the hooks ran (none when it is missing).
    public static func read(from path: String) -> [HookReport] {
        guard let bytes = try? FileSystem.read(path) else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let value = try? JSONParser().parse(line), case .string(let hook)? = value.field("hook") else { return nil }
            func number(_ field: String) -> Double {
                switch value.field(field) {
                case .double(let number)?: number
                case .integer(let number)?: Double(number)
                default: 0
                }
            }
            var rules: [String] = []
            if case .array(let entries)? = value.field("refused") {
                rules = entries.compactMap { if case .string(let rule) = $0 { rule } else { nil } }
            }
            return HookReport(hook: hook, seconds: number("seconds"), cpuSeconds: number("cpu"), refusedRules: rules)
        }
    }
}
