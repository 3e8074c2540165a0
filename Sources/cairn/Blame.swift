import ArgumentParser
import CairnCore
import CairnMerge

struct Blame: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Tell, for each value of a document, the checkpoint and device that last set it, and the merge decision that kept it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/books/b1.")
    var path: String

    @Option(name: .long, help: ArgumentHelp("The checkpoint to trace from (an id, HEAD~2); the last one by default.", valueName: "rev"))
    var at: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let document = try DocumentPath.parsing(path)
        let store = try global.openStore()
        let revision = at ?? "HEAD"
        let values = try store.blame(document, at: revision)
        if json {
            return Output.json(
                .object([
                    "path": .string(document.description),
                    "checkpoint": Output.id(try store.checkpoint(revision).id),
                    "values": .array(
                        values.map { value in
                            .object([
                                "pointer": .string(value.pointer),
                                "value": value.value,
                                "checkpoint": Output.jsonValue(of: value.checkpoint),
                                "decision": value.decision.map { decision in
                                    .object(["merge": Output.id(decision.merge.id), "conflict": decision.record.jsonValue])
                                } ?? .null,
                            ])
                        }),
                ]))
        }
        let width = values.map { ($0.checkpoint.deviceName ?? "-").count }.max() ?? 1
        for value in values {
            let checkpoint = value.checkpoint
            var line =
                "\(checkpoint.id.short) \(ISO8601Stamp.text(seconds: checkpoint.time, separator: " ")) "
                + Output.pad(checkpoint.deviceName ?? "-", to: width) + "  "
                + "\(value.pointer.isEmpty ? "/" : value.pointer): \(value.value.shortInlineText)"
            if let decision = value.decision {
                line += "  [\(decision.merge.id.short) \(decision.record.policy) kept it"
                if let replaced = Self.replaced(by: decision, at: value.pointer) { line += ", replaced \(replaced.shortInlineText)" }
                if let note = decision.record.note { line += "; \(note)" }
                line += "]"
            }
            print(line)
        }
    }

    /// What the decision replaced at `pointer`: the record's replaced value there, when the
    /// record decided an object above it.
    static func replaced(by decision: ValueProvenance.Decision, at pointer: String) -> JSONValue? {
        guard let replaced = decision.record.replaced else { return nil }
        let decided = JSONValue.tokens(ofPointer: decision.record.pointer).count
        return replaced.value(atTokens: JSONValue.tokens(ofPointer: pointer).dropFirst(decided))
    }
}
