import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnMerge

/// `cairn schema`: what a schema set says, and what is wrong with it, before a store uses it.
/// (A command group: further subcommands join `subcommands`.)
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Check a schema set, show what it says, or check its merge laws.",
        discussion: """
            SET is a set's name (life-in-uk, …) or the path of a folder of *.schema.json files \
            (an argument with a / or a leading . is a path).
            """,
        subcommands: [Check.self, Show.self, SchemaLaws.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Lint a schema set: one line per finding (FILE: POINTER: RULE: message), exit status 1 on any.",
            discussion: """
                Rules: json, path-pattern, path-overlap, merge-word, merge-annotation, \
                policy-type, stamp-field, derive-source, cairn-annotation, unclaimed-keyword, \
                migrations, set-refused (the article "Bring your own schema set" in CairnMerge.docc says what each checks).
                """)

        @Argument(help: ArgumentHelp("The set's name, or the path of its folder.", valueName: "set"))
        var set: String

        func run() throws {
            let files = try SchemaLocator.set(named: set)
            let findings = SchemaSetCheck(files: files.files).findings
            let prefix = (SchemaSetFolder.isPath(set) ? (set.hasSuffix("/") ? String(set.dropLast()) : set) : files.name) + "/"
            for finding in findings {
                var placed = finding
                placed.file = prefix + finding.file
                print(placed)
            }
            guard findings.isEmpty else {
                let count = findings.count == 1 ? "1 finding" : "\(findings.count) findings"
                throw CairnError(.invalidInput, "\(count) in the schema set \(files.name); fix them and run cairn schema check again")
            }
            let kinds = files.files.keys.filter { $0.hasSuffix(".schema.json") }.count
            print("\(files.name): \(kinds) kind\(kinds == 1 ? "" : "s") of document, no findings.")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print per kind of document its path, file, checkpoint, retention, ID rules, policy tree and derived fields.")

        @Argument(help: ArgumentHelp("The set's name, or the path of its folder.", valueName: "set"))
        var set: String

        @Flag(help: Output.jsonHelp)
        var json = false

        func run() throws {
            let files = try SchemaLocator.set(named: set)
            let schemaSet = try SchemaSet(reading: files, then: "cairn schema check \(set) lists what is wrong")
            if json {
                Output.json(schemaSet.jsonDescription(named: files.name))
            } else {
                Output.write(Array(schemaSet.description(named: files.name).utf8))
            }
        }
    }
}
