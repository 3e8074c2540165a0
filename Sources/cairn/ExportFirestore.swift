import ArgumentParser
import CairnCore
import CairnFirestore
import CairnMerge

struct ExportFirestore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-firestore",
        abstract: "Write the store's documents as a Firestore export (stdout, or a new file).",
        discussion: """
            Firestore's REST form by default, documents named in the project and database the \
            last import-firestore recorded (or --project, --database); --shape node writes \
            node-firestore-import-export's form. Values are mapped as the store's schema set \
            directs; documents sorted by path, keys sorted: the same documents give the same bytes.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .long, help: ArgumentHelp("A checkpoint to export (an id, HEAD~2); default: the documents as they are now.", valueName: "rev")
    )
    var at: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("A new file to write (default: stdout); an existing file is never replaced.", valueName: "file"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The Firestore project the documents are named in (default: the one the last import recorded).", valueName: "id")
    )
    var project: String?

    @Option(
        name: .long, help: ArgumentHelp("The database ID (default: the one the last import recorded, else (default)).", valueName: "id"))
    var database: String?

    @Option(
        name: .long,
        help: ArgumentHelp("rest (Firestore's REST documents) or node (node-firestore-import-export's form).", valueName: "shape"))
    var shape: String = FirestoreShape.rest.rawValue

    func validate() throws {
        guard FirestoreShape(rawValue: shape) != nil else {
            throw ValidationError("--shape is rest or node, not \(shape)")
        }
        for (option, value) in [("--project", project), ("--database", database)] {
            if let value, FirestoreDatabase(project: value, database: value) == nil {
                throw ValidationError("\(option) is an ID without / or spaces, not \(value)")
            }
        }
    }

    func run() throws {
        let shape = FirestoreShape(rawValue: shape) ?? .rest
        if let output, FileSystem.kind(output) != nil {
            throw FileSystem.taken(output)
        }
        let store = try global.openStore()
        var named: FirestoreDatabase?
        if project != nil || database != nil {
            let remembered = try store.rememberedFirestoreDatabase()
            guard let project = project ?? remembered?.project else {
                throw CairnError(
                    .invalidInput, "--database names a database of a project, and the store knows none", remedy: .nameFirestoreProject)
            }
            let id = database ?? (project == remembered?.project ? remembered?.database : nil) ?? FirestoreDatabase.defaultDatabase
            guard let given = FirestoreDatabase(project: project, database: id) else {
                throw CairnError(.invalidInput, "--project and --database are IDs without / or spaces: \(project), \(id)")
            }
            named = given
        }
        let export = try store.exportFirestore(at: at, shape: shape, database: named)
        if let output {
            // Checked above, before the work; a file made since is not replaced either.
            try FileSystem.writeNew(export.bytes, to: output)
            let documents = "\(export.documents) document\(export.documents == 1 ? "" : "s")"
            print("Exported \(documents)\(export.database.map { " of \($0)" } ?? "") to \(output)")
        } else {
            Output.write(export.bytes)
        }
    }
}
