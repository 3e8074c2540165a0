import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnMerge
import CairnMergeLaws

/// `cairn schema laws SET`: the merge laws, run over documents generated from the set.
struct SchemaLaws: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "laws",
        abstract: "Check the merge laws on documents generated from a schema set.",
        discussion: """
            For each kind of document, merges generated cases — a base (or none) and two sides \
            made by the kind's own edits, deletes and creations — through the kind's whole \
            policy tree, and checks the laws every policy keeps: symmetric to the byte \
            (records included), identity (merging against an unchanged side gives the other), \
            idempotence (the same change on both sides gives that change); counter is exempt \
            from idempotence, and append-only keeps its base against any change. Prints a line \
            per kind; for a broken law, the minimal counter-example found by shrinking the \
            case, and both merges. Exit status 1 when a law is broken.
            """)

    @Argument(help: ArgumentHelp("The schema set: a name, or a folder path.", valueName: "set"))
    var set: String

    @Option(help: "Cases per kind of document.") var cases = 2_000
    @Option(help: "The seed the cases are drawn from.") var seed: UInt64 = 1

    func validate() throws {
        guard (1...1_000_000).contains(cases) else { throw ValidationError("--cases is 1 to 1000000") }
    }

    func run() throws {
        let schemaSet = try SchemaSet(reading: SchemaLocator.set(named: set))
        let generator = DocumentGenerator(set: schemaSet)
        var broken = 0
        for (index, kind) in schemaSet.kinds.enumerated() {
            let name = schemaSet.isContent ? kind.pattern.description : Self.shortName(kind.pattern)
            var random = SplitMix(seed: seed &+ UInt64(index))
            let path: DocumentPath
            do {
                path = try generator.path(of: kind, using: &random)
            } catch {
                print("\(name): skipped, its paths cannot be generated: \(error.description)")
                broken += 1
                continue
            }
            let checker = MergeLawChecker(set: schemaSet, path: path)
            let found: [LawViolation]
            do {
                found = try checker.check(cases: cases, seed: seed &+ UInt64(index), limit: 1) { random throws(GenerationError) in
                    try generator.lawCase(of: kind, at: path, using: &random)
                }
            } catch let error as GenerationError {
                print("\(name): skipped, its documents cannot be generated: \(error.description)")
                broken += 1
                continue
            }
            guard let first = found.first else {
                print("\(name): \(cases) cases, laws hold")
                continue
            }
            broken += 1
            let minimal = checker.shrink(first)
            print(
                "\(name): \(first.law.rawValue) broken (case \(first.caseNumber.map(String.init) ?? "?") of seed \(seed &+ UInt64(index))); minimal counter-example:"
            )
            for line in minimal.description.split(separator: "\n").dropFirst() { print(String(line)) }
            print("  at \(minimal.pointer.isEmpty ? "/" : minimal.pointer): the law wants \(minimal.expectation)")
        }
        if broken > 0 { throw ExitCode(1) }
    }

    /// A kind's pattern without its `users/{uid}/` (`books/{bookId}`); the user document's whole.
    /// (A content set's patterns are shown whole: their collection is what tells them apart.)
    static func shortName(_ pattern: PathPattern) -> String {
        let text = pattern.description
        guard let slash = text.firstIndex(of: "/"), let second = text[text.index(after: slash)...].firstIndex(of: "/") else { return text }
        return String(text[text.index(after: second)...])
    }
}
