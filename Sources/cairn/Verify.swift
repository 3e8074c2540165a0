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
            merge must be what the policies give from its parents. One line per finding; exit \
            status 1 when there is any.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A revision (all that leads to it) or A..B; HEAD by default.", valueName: "range"))
    var range: String = "HEAD"

    @Option(name: .customLong("git-dir"), help: ArgumentHelp("A server's bare repository to audit instead of a store (made by cairn server init).", valueName: "dir"))
    var gitDir: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let (commits, findings) = try gitDir.map { try Store.verifyRepository(at: $0, range: range) }
            ?? global.openStore().verify(range)
        if json {
            Output.json(.object([
                "commits": .integer(Int64(commits)), "valid": .bool(findings.isEmpty),
                "findings": .array(findings.map { .object(["commit": .string($0.commit.hex), "message": .string($0.message)]) }),
            ]))
        } else {
            for finding in findings { print(finding.description) }
        }
        guard findings.isEmpty else {
            throw CairnError(.invalidInput, "\(findings.count) finding\(findings.count == 1 ? "" : "s") in \(commits) commit\(commits == 1 ? "" : "s") (above)")
        }
        if !json { print("Verified \(commits) commit\(commits == 1 ? "" : "s"): every commit meets the rules, every merge is what the policies give.") }
    }
}
