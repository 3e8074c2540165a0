import CairnTestSupport

/// One command that the fault harness kills or fails at each of its file-system calls: how
/// to build the store it runs on (the template), the command, and what finishes its work.
struct FaultScenario: Sendable, CustomStringConvertible {
    /// A short name for the figures: `put (new document)`.
    let name: String
    /// The command, run on device `a` of the site.
    let command: [String]
    /// What the command reads on stdin.
    let input: String?
    /// The commands run afterwards, in order: what commits the command's work (`checkpoint`
    /// after a put), and what checks it. Each must succeed.
    let followUp: [[String]]
    /// The command talks to the remote: the remote and the other device are checked too.
    let syncs: Bool
    /// Running the command again after it did its work may say so and fail (`rm` of a
    /// document already removed says there is none); that counts as done.
    let retryMayFindItDone: Bool
    /// Builds the devices and the remote in a fresh site, with the seeded generator choosing
    /// the documents' values.
    let prepare: @Sendable (FaultSite, inout SplitMix) throws -> Void
    /// What the run without faults must show to be the case the scenario is about (packs
    /// combined, say): nil when it does, else what is wrong.
    let confirm: @Sendable (FaultSite) throws -> String?

    init(
        _ name: String, command: [String], input: String? = nil, followUp: [[String]] = [],
        syncs: Bool = false, retryMayFindItDone: Bool = false,
        confirm: @escaping @Sendable (FaultSite) throws -> String? = { _ in nil },
        prepare: @escaping @Sendable (FaultSite, inout SplitMix) throws -> Void
    ) {
        self.name = name
        self.command = command
        self.input = input
        self.followUp = followUp
        self.syncs = syncs
        self.retryMayFindItDone = retryMayFindItDone
        self.prepare = prepare
        self.confirm = confirm
    }

    var description: String { name }
}
