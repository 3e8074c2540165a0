/// A schema set as files: its name (its folder's, `life-in-uk`) and the content of each of
/// its files by file name — the `*.schema.json` schemas and, when the set has declared
/// migrations, `migrations.json` — as a store keeps them in `.cairn/schema/`.
public struct SchemaSetFiles: Sendable, Hashable {
    /// The set's name, which a store records in its identity file.
    public var name: String
    /// Each file's bytes by its name (no folder).
    public var files: [String: [UInt8]]

    public init(name: String, files: [String: [UInt8]]) {
        self.name = name
        self.files = files
    }

    /// Whether a file of a folder belongs to a schema set: a schema or the migrations.
    public static func isSetFile(_ name: String) -> Bool {
        name.hasSuffix(".schema.json") || name == SchemaMigrations.fileName
    }
}
