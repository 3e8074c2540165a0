import ArgumentParser
import CairnCore
import CairnMerge

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check documents against the store's schema set: the whole store, or one document.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A document path; without it, every document of the store.")
    var path: String?

    func run() throws {
        let document = try path.map { try DocumentPath.parsing($0) }
        let store = try global.openStore()
        let report = try store.validate(document)
        for entry in report {
            for problem in entry.problems {
                print("\(entry.path): \(problem)")
            }
        }
        guard report.isEmpty else {
            let count = report.count == 1 ? "1 document is" : "\(report.count) documents are"
            throw CairnError(.invalidInput, "\(count) not valid; fix the files (or put them again) and run cairn validate again")
        }
        print(try store.schemaSet().kinds.isEmpty ? "All documents are valid JSON objects (the store has no schema set)." : "All documents match their schemas.")
    }
}
