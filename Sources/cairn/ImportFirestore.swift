import ArgumentParser
import CairnCore
import CairnFirestore
import CairnMerge

struct ImportFirestore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-firestore",
        abstract: "Write the documents of a Firestore export (users/UID/…) into the store, in one checkpoint.",
        discussion: """
            FILE is Firestore's REST form ({"documents": [{"name": …, "fields": …}]}, or a JSON \
            array of such documents) or node-firestore-import-export's ({"__collections__": …}). \
            Values are mapped as the store's schema set directs (see the docs, "Firestore in \
            and out"). Every document is checked first; any problem refuses the whole file and \
            nothing is written. The database of a REST file is remembered for export-firestore.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The export file (- for stdin).")
    var file: String

    @Flag(name: .customLong("skip-other-users"), help: "Leave out the documents of other users instead of refusing the file.")
    var skipOtherUsers = false

    @Flag(help: Output.jsonHelp)
    var json = false

    /// The largest export file read.
    static let limit = 1 << 30

    func run() throws {
        let bytes = try Input.read(
            file == "-" ? nil : file, limit: Self.limit,
            beyondLimit: "the largest export read; export fewer documents at a time")
        let store = try global.openStore()
        let result = try store.importFirestore(bytes, skippingOtherUsers: skipOtherUsers)
        if json {
            return Output.json(Self.jsonValue(of: result))
        }
        let count = result.documents.count
        let documents = "\(count) document\(count == 1 ? "" : "s")"
        let skipped = result.skipped > 0 ? "; \(result.skipped) of other users left out" : ""
        if let checkpoint = result.checkpoint {
            let changes = CheckpointResult(id: checkpoint, changes: result.changes).summary
            print("Imported \(documents) from Firestore: checkpoint \(checkpoint.short), \(changes)\(skipped)")
        } else if count == 0 {
            print("Nothing to import: the file holds no document of \(store.uid)\(skipped)")
        } else {
            print("Nothing to import: the store holds the \(documents) of the file as they are\(skipped)")
        }
        let shown = 10
        for note in result.notes.prefix(shown) { print("  note: \(note)") }
        if result.notes.count > shown { print("  … and \(result.notes.count - shown) more such values") }
    }

    /// `checkpoint` (full id; null when nothing changed), `documents` (paths), `changes`,
    /// `skipped`, `shape`, `project` and `database` (null for the Node tool's form), `notes`.
    static func jsonValue(of result: FirestoreImportResult) -> JSONValue {
        .object([
            "checkpoint": Output.id(result.checkpoint),
            "documents": .array(result.documents.map { .string($0.description) }),
            "changes": .array(result.changes.map(Output.jsonValue(of:))),
            "skipped": .integer(Int64(result.skipped)),
            "shape": .string(result.shape.rawValue),
            "project": Output.text(result.database?.project),
            "database": Output.text(result.database?.database),
            "notes": .array(
                result.notes.map { note in
                    .object(["document": .string(note.document.description), "pointer": .string(note.pointer), "type": .string(note.type)])
                }),
        ])
    }
}
