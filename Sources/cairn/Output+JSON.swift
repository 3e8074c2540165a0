import ArgumentParser
import CairnCore
import CairnMerge

/// What `--json` prints: one JSON object on stdout, in canonical text, whose field names are
/// documented in CairnCore.docc, Scripts ("Scripts: --json") and never change. Revisions are full ids,
/// times ISO 8601 in UTC, documents their own JSON values.
extension Output {
    /// The help of every command's `--json` flag.
    static let jsonHelp = ArgumentHelp("Print one JSON object for scripts instead (see the docs: Scripts, in CairnCore.docc).")

    /// Writes the one value a `--json` command prints.
    static func json(_ value: JSONValue) {
        write(value.canonicalBytes())
    }

    /// A time as ISO 8601 in UTC (`2026-11-22T02:12:02Z`), from seconds since 1970.
    static func time(_ seconds: Int64) -> JSONValue {
        .string(ISO8601Stamp.text(seconds: seconds))
    }

    /// A checkpoint's full id; null for none.
    static func id(_ id: CheckpointID?) -> JSONValue {
        id.map { .string($0.hex) } ?? .null
    }

    /// A text; null for none.
    static func text(_ text: String?) -> JSONValue {
        text.map { .string($0) } ?? .null
    }

    /// The document's path for a document's file (`users/u1/books/b1.json`), else the file
    /// itself (`.cairn/schema/book.schema.json`), as status lists them.
    static func documentPath(ofFile file: String) -> String {
        FileChange(path: file, kind: .modified).displayPath
    }

    /// A checkpoint: `id`, `parents`, `time`, `author`, `device` and `deviceName` (its
    /// trailers; null when it has none), `summary` (the first line of the message) and
    /// `message` (all of it).
    static func jsonValue(of checkpoint: CairnCore.Checkpoint) -> JSONValue {
        .object([
            "id": .string(checkpoint.id.hex),
            "parents": .array(checkpoint.parents.map { .string($0.hex) }),
            "time": time(checkpoint.time),
            "author": .string(checkpoint.author),
            "device": text(checkpoint.device),
            "deviceName": text(checkpoint.deviceName),
            "summary": .string(checkpoint.summary),
            "message": .string(checkpoint.message),
        ])
    }

    /// A changed file: `path` (the document's path, or the file's for files that are not
    /// documents, such as `.cairn/schema/…`), `file` (the file in the store) and `kind`
    /// (`added`, `modified`, `deleted`).
    static func jsonValue(of change: FileChange) -> JSONValue {
        .object(["path": .string(change.displayPath), "file": .string(change.path), "kind": .string(change.kind.rawValue)])
    }

    /// A derived field computed again: `document`, `field`, `found` (null: absent),
    /// `expected` and `schema` (the schema file).
    static func jsonValue(of correction: DerivedFieldMismatch) -> JSONValue {
        .object([
            "document": .string(correction.document.description), "field": .string(correction.field),
            "found": correction.found ?? .null, "expected": correction.expected, "schema": .string(correction.schemaFile),
        ])
    }

    /// A finding of `validate`: `path`, `pointer`, `keyword`, `schema` and `schemaPath`
    /// (null when the rule is not a schema's keyword), `message`.
    static func jsonValue(of finding: DocumentFinding) -> JSONValue {
        .object([
            "path": .string(finding.document.description), "pointer": .string(finding.pointer),
            "keyword": .string(finding.keyword), "schema": text(finding.schemaFile),
            "schemaPath": text(finding.schemaPath), "message": .string(finding.message),
        ])
    }
}
