/// Lints a schema set beyond what loading it needs: what ``SchemaSet/init(files:)`` refuses,
/// and what it accepts but would merge or check otherwise than its author meant — an
/// `x-merge` word that does not exist, a policy on a value of a type it cannot merge, a
/// stamp that is not one, a derived field over a map that is not there, two kinds of
/// document that claim the same paths, a path pattern that breaks the ID rules, a keyword the
/// validator does not check.
///
/// ```swift
/// for finding in SchemaSetCheck(files: set.files).findings { print(finding) }
/// ```
public struct SchemaSetCheck: Sendable {
    /// The set's files by name (schemas and `migrations.json`).
    public let files: [String: [UInt8]]

    public init(files: [String: [UInt8]]) {
        self.files = files
    }

    /// Everything wrong with the set, sorted by file and place; [] for a set that passes.
    public var findings: [SchemaSetFinding] {
        var findings: [SchemaSetFinding] = []
        var schemas: [(file: String, json: JSONValue)] = []
        for name in files.keys.sorted() where name != SchemaMigrations.fileName {
            do {
                let json = try JSONParser().parse(files[name]!)
                guard case .object = json else {
                    findings.append(
                        SchemaSetFinding(
                            file: name, pointer: "", rule: .json,
                            message: "a schema file holds a JSON object, not \(json.typeName)"))
                    continue
                }
                schemas.append((name, json))
            } catch {
                findings.append(SchemaSetFinding(file: name, pointer: "", rule: .json, message: error.description))
            }
        }
        let patterns = schemas.compactMap { schema in Self.pattern(of: schema.json).map { (file: schema.file, pattern: $0) } }
        for (file, json) in schemas {
            findings += Self.pathFindings(file: file, schema: json)
            findings += Self.cairnFindings(file: file, schema: json)
            findings += Self.pinFindings(file: file, schema: json)
            findings += Self.policyFindings(file: file, schema: json)
            findings += Self.derivedFindings(file: file, schema: json, schemas: schemas)
            findings += Self.keywordFindings(file: file, schema: json)
            findings += Self.firestoreFindings(file: file, schema: json)
        }
        findings += Self.overlapFindings(patterns)
        findings += Self.contentFindings(schemas)
        if let bytes = files[SchemaMigrations.fileName] {
            do {
                _ = try SchemaMigrations(json: bytes)
            } catch {
                findings.append(SchemaSetFinding(file: error.file, pointer: "", rule: .migrations, message: error.reason))
            }
        }
        // What loading refuses that no rule above named: each file alone, then the whole set.
        let named = Set(findings.map(\.file))
        for (file, _) in schemas where !named.contains(file) {
            do {
                _ = try SchemaSet(files: [file: files[file]!])
            } catch {
                findings.append(SchemaSetFinding(file: error.file, pointer: "", rule: .setRefused, message: error.reason))
            }
        }
        if findings.isEmpty {
            do {
                _ = try SchemaSet(files: files)
            } catch {
                findings.append(SchemaSetFinding(file: error.file, pointer: "", rule: .setRefused, message: error.reason))
            }
        }
        if schemas.isEmpty && findings.isEmpty {
            findings.append(
                SchemaSetFinding(
                    file: ".", pointer: "", rule: .setRefused,
                    message: "the set holds no *.schema.json file; add one schema per kind of document"))
        }
        return findings.sorted()
    }

    /// `name` as a JSON pointer token.
    static func token(_ name: String) -> String {
        MergePolicy.escape(name)
    }
}
