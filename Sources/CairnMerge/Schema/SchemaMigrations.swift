/// How a schema set moves documents from one of its versions to the next, declared in the
/// set's `migrations.json`:
///
/// ```json
/// {"schemaVersion": 2,
///  "migrations": [{"from": 1, "to": 2, "description": "…", "steps": [
///    {"move": {"from": "users/{uid}/tasks/{taskId}", "to": "users/{uid}/profiles/{profileId}/habits/{taskId}"}},
///    {"rename": {"in": "users/{uid}/profiles/{phone}", "field": "/name", "to": "/displayName"}},
///    {"remove": {"in": "users/{uid}/profiles/{phone}/habits/{taskId}", "field": "/profileId"}},
///    {"set": {"in": "users/{uid}/profiles/{phone}", "field": "/schemaVersion", "value": 2}}]}]}
/// ```
///
/// A `move` fills the placeholders of `to` from those of `from` and from the document's own
/// top-level text fields (`{profileId}`). Fields are JSON pointers. Steps run in order on the
/// whole store, so a step sees the documents as the steps before it left them. A set without
/// the file is at version 1 and has no migrations. Migrating is deterministic: the same
/// documents give the same documents on every device.
public struct SchemaMigrations: Sendable, Hashable {
    /// The file of a schema set that declares its version and migrations.
    public static let fileName = "migrations.json"

    /// The version the set is at.
    public var version: Int
    /// The migrations, each from one version to the next, in order.
    public var migrations: [Migration]

    /// How documents move from version `from` to `to` (= `from` + 1).
    public struct Migration: Sendable, Hashable {
        public var from: Int
        public var to: Int
        /// What the migration is for, as its author wrote it.
        public var description: String
        /// Applied in order to the whole store.
        public var steps: [Step]
    }

    /// One change to the documents of a store.
    public enum Step: Sendable, Hashable {
        case move(from: PathPattern, to: PathPattern)
        case rename(in: PathPattern, field: [String], to: [String])
        case remove(in: PathPattern, field: [String])
        case set(in: PathPattern, field: [String], value: JSONValue)
    }

    /// A set at version 1 without migrations.
    public static let initial = SchemaMigrations(version: 1, migrations: [])

    public init(version: Int, migrations: [Migration]) {
        self.version = version
        self.migrations = migrations
    }

    /// Reads `migrations.json`; the error says which part is wrong.
    public init(json bytes: [UInt8]) throws(SchemaSetError) {
        func fail(_ reason: String) -> SchemaSetError { SchemaSetError(file: Self.fileName, reason: reason) }
        let json: JSONValue
        do {
            json = try JSONParser().parse(bytes)
        } catch {
            throw fail(error.description)
        }
        guard case .integer(let version)? = json.field("schemaVersion"), version >= 1 else {
            throw fail("schemaVersion must be an integer ≥ 1")
        }
        var migrations: [Migration] = []
        var entries: [JSONValue] = []
        if case .array(let items)? = json.field("migrations") { entries = items }
        for entry in entries {
            guard case .integer(let from)? = entry.field("from"), case .integer(let to)? = entry.field("to"), to == from + 1 else {
                throw fail("each migration goes from one version to the next: {\"from\": N, \"to\": N+1, \"steps\": […]}")
            }
            guard case .array(let items)? = entry.field("steps") else { throw fail("migration \(from)→\(to) has no steps") }
            var steps: [Step] = []
            for item in items {
                steps.append(try Self.step(item, fail: fail))
            }
            let description = if case .string(let text)? = entry.field("description") { text } else { "" }
            migrations.append(Migration(from: Int(from), to: Int(to), description: description, steps: steps))
        }
        for step in 1..<max(Int(version), 1) where !migrations.contains(where: { $0.from == step }) {
            throw fail("schemaVersion is \(version) but no migration goes from \(step) to \(step + 1)")
        }
        self.init(version: Int(version), migrations: migrations.sorted { $0.from < $1.from })
    }

    private static func step(_ item: JSONValue, fail: (String) -> SchemaSetError) throws(SchemaSetError) -> Step {
        guard case .object(let fields) = item, fields.count == 1, let (name, body) = fields.first else {
            throw fail("a step is one of {\"move\": …}, {\"rename\": …}, {\"remove\": …}, {\"set\": …}")
        }
        func pattern(_ key: String) throws(SchemaSetError) -> PathPattern {
            guard case .string(let text)? = body.field(key), let pattern = PathPattern(text) else {
                throw fail("\(name): \"\(key)\" must be a document path pattern like users/{uid}/books/{bookId}")
            }
            return pattern
        }
        func pointer(_ key: String) throws(SchemaSetError) -> [String] {
            guard case .string(let text)? = body.field(key), text.hasPrefix("/"), text.count > 1 else {
                throw fail("\(name): \"\(key)\" must be a JSON pointer like /name")
            }
            return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
                $0.replacingTilde()
            }
        }
        switch name {
        case "move": return .move(from: try pattern("from"), to: try pattern("to"))
        case "rename": return .rename(in: try pattern("in"), field: try pointer("field"), to: try pointer("to"))
        case "remove": return .remove(in: try pattern("in"), field: try pointer("field"))
        case "set":
            guard let value = body.field("value") else { throw fail("set: give the \"value\"") }
            return .set(in: try pattern("in"), field: try pointer("field"), value: value)
        default:
            throw fail("unknown step \(name); use move, rename, remove or set")
        }
    }

    /// The documents of a store at `version`, migrated to this set's version. Refuses (with
    /// the document and the step) a move whose target cannot be filled or is taken.
    public func migrate(_ documents: [DocumentPath: JSONValue], from version: Int) throws(SchemaSetError) -> [DocumentPath: JSONValue] {
        var documents = documents
        for migration in migrations where migration.from >= version && migration.to <= self.version {
            for step in migration.steps {
                documents = try apply(step, to: documents, in: migration)
            }
        }
        return documents
    }

    private func apply(
        _ step: Step, to documents: [DocumentPath: JSONValue],
        in migration: Migration
    ) throws(SchemaSetError) -> [DocumentPath: JSONValue] {
        func fail(_ reason: String) -> SchemaSetError {
            SchemaSetError(file: Self.fileName, reason: "migration \(migration.from)→\(migration.to): \(reason)")
        }
        var result: [DocumentPath: JSONValue] = [:]
        switch step {
        case .move(let from, let to):
            var moved: [DocumentPath: JSONValue] = [:]
            for path in documents.keys.sorted() {
                let value = documents[path]!
                guard var captures = from.match(path) else {
                    result[path] = value
                    continue
                }
                for (key, field) in value.objectValue ?? [:] where captures[key] == nil {
                    if case .string(let text) = field { captures[key] = text }
                }
                guard let target = to.fill(captures) else {
                    throw fail(
                        "cannot move \(path) to \(to): a placeholder has no value (neither in the path nor a text field of the document)")
                }
                if moved[target] != nil {
                    throw fail("cannot move \(path) to \(target): another document moves there too")
                }
                moved[target] = value
            }
            for (path, value) in moved {
                if result[path] != nil { throw fail("cannot move a document to \(path): a document is there") }
                result[path] = value
            }
        case .rename(let pattern, let field, let to):
            for (path, value) in documents {
                guard pattern.match(path) != nil, let old = value.value(at: field) else {
                    result[path] = value
                    continue
                }
                result[path] = value.setting(nil, at: field).setting(old, at: to)
            }
        case .remove(let pattern, let field):
            for (path, value) in documents {
                result[path] = pattern.match(path) != nil ? value.setting(nil, at: field) : value
            }
        case .set(let pattern, let field, let newValue):
            for (path, value) in documents {
                result[path] = pattern.match(path) != nil ? value.setting(newValue, at: field) : value
            }
        }
        return result
    }
}

extension Substring {
    /// A JSON pointer token unescaped (`~1` is `/`, `~0` is `~`).
    fileprivate func replacingTilde() -> String {
        var text = ""
        var iterator = makeIterator()
        while let character = iterator.next() {
            if character == "~", let next = iterator.next() {
                text.append(next == "1" ? "/" : next == "0" ? "~" : next)
            } else {
                text.append(character)
            }
        }
        return text
    }
}
