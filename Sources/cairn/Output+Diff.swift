import CairnCore
import CairnMerge

/// Documents that differ, as `cairn diff` and `cairn log -p` print them.
extension Output {
    /// One line per document (`changed users/u1/books/b1`), then one per value that changed
    /// (`  /sections/s3/completed: false → true`), each line after `indent`.
    static func printDiff(_ diffs: [DocumentDiff], indent: String = "") {
        for diff in diffs {
            print(indent + pad(diff.kind.rawValue, to: 8) + diff.path.description)
            for change in diff.changes {
                print(indent + "  " + change.description)
            }
        }
    }

    /// A document that differs: `path`, `change` (`added`, `removed`, `changed`) and
    /// `changes`, each a `pointer` (JSON pointer, "" for the whole document) with `before` and
    /// `after`, each left out where the value is absent.
    static func jsonValue(of diff: DocumentDiff) -> JSONValue {
        .object([
            "path": .string(diff.path.description),
            "change": .string(diff.kind.rawValue),
            "changes": .array(
                diff.changes.map { change in
                    var fields: JSONObject = ["pointer": .string(change.pointer)]
                    if let before = change.before { fields["before"] = before }
                    if let after = change.after { fields["after"] = after }
                    return .object(fields)
                }),
        ])
    }
}
