import ArgumentParser
import CairnCore
import CairnMerge

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check documents against the store's schema set: the whole store, or one document.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A document path; without it, every document of the store.")
    var path: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let document = try path.map { try DocumentPath.parsing($0) }
        let store = try global.openStore()
        if json {
            let findings = try store.findings(document)
            Output.json(.object(["valid": .bool(findings.isEmpty), "findings": .array(findings.map(Output.jsonValue(of:)))]))
            if !findings.isEmpty { throw Self.invalid(count: Set(findings.map(\.document)).count) }
            return
        }
        let report = try store.validate(document)
        for entry in report {
            for problem in entry.problems {
                print("\(entry.path): \(problem)")
            }
        }
        guard report.isEmpty else { throw Self.invalid(count: report.count) }
        print(
            try store.schemaSet().kinds.isEmpty
                ? "All documents are valid JSON objects (the store has no schema set)." : "All documents match their schemas.")
    }

    /// The failure of a store with `count` documents that are not valid.
    static func invalid(count: Int) -> CairnError {
        let documents = count == 1 ? "1 document is" : "\(count) documents are"
        return CairnError(.invalidInput, "\(documents) not valid; fix the files (or put them again) and run cairn validate again")
    }
}
