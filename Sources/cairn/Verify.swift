import ArgumentParser
import CairnCore
import CairnMerge

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Audit a history: every commit against the rules a push must meet, every merge against its parents merged again.",
        discussion: """
            Each commit is checked against its parent as the server checks a push: what a store \
            may hold, documents valid under the schema set of the commit's tree, append-only \
            documents never changed or deleted (but by retention), derived fields right. Each \
            merge must be what the policies give from its parents. One line per finding (a \
            commit that breaks several rules has several); exit status 1 when there is any. \
            What cannot be judged here — documents sealed with a key not given, an encrypted \
            store's merges without its key — is named in one line per reason, and is not a \
            finding.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A revision (all that leads to it) or A..B; HEAD by default.", valueName: "range"))
    var range: String = "HEAD"

    @Option(
        name: .customLong("git-dir"),
        help: ArgumentHelp("A server's bare repository to audit instead of a store (made by cairn server init).", valueName: "dir"))
    var gitDir: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let result = try audit()
        if json {
            Output.json(
                .object([
                    "commits": .integer(Int64(result.commits)), "valid": .bool(result.isSound),
                    "findings": .array(
                        result.findings.map { .object(["commit": .string($0.commit.hex), "message": .string($0.message)]) }),
                    "notJudged": .array(
                        result.gaps.map { .object(["reason": .string($0.reason), "commits": .array($0.commits.map { .string($0.hex) })]) }),
                ]))
        } else {
            for finding in result.findings { print(finding.description) }
            for gap in result.gaps { print(gap.description) }
        }
        let commits = result.commits
        guard result.isSound else {
            throw CairnError(
                .invalidInput,
                "\(result.findings.count) finding\(result.findings.count == 1 ? "" : "s") in \(commits) commit\(commits == 1 ? "" : "s") (above)"
            )
        }
        guard !json else { return }
        if result.gaps.isEmpty {
            print(
                "Verified \(commits) commit\(commits == 1 ? "" : "s"): every commit meets the rules, every merge is what the policies give."
            )
        } else {
            print(
                "Verified \(result.judged) of \(commits) commit\(commits == 1 ? "" : "s"): every one checked meets the rules, every merge checked is what the policies give; the others are named above."
            )
        }
    }

    /// The audit of `--git-dir`, else of the store: an encrypted store whose key the keys given
    /// lack (a device holding only the key before a rotation) is audited as far as they open it.
    private func audit() throws -> HistoryAuditResult {
        if let gitDir { return try Store.verifyRepository(at: gitDir, range: range) }
        let home = global.resolvedHome
        do {
            return try home.openStore(global.user).verify(range)
        } catch {
            guard case .giveStoreKey? = error.remedy, let uid = try global.user ?? home.activeUser() else { throw error }
            let partial = try Store.verifyStore(at: home.storeFolder(uid), range: range, configuration: home.configuration)
            // No key opened anything: the store's own refusal says what to give.
            guard partial.judged > 0 else { throw error }
            return partial
        }
    }
}
