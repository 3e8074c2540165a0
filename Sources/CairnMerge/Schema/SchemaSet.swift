/// The JSON Schemas of one app: one per kind of document, each naming the documents it
/// describes (`"x-cairn": {"path": "users/{uid}/books/{bookId}"}`) and how they merge
/// (`x-merge`). A store carries a copy, so policies travel and version with the data.
///
/// A *content set* describes shared content instead of one user's progress: every kind is
/// marked `"x-cairn": {"content": true, "path": "assessments/{assessmentId}/…"}`, its paths
/// rooted in one literal collection and a placeholder for the item (``contentCollection``).
public struct SchemaSet: Sendable {
    /// One kind of document.
    public struct Kind: Sendable {
        /// The file the schema came from (`book.schema.json`).
        public var file: String
        public var pattern: PathPattern
        public var schema: Schema
        public var policy: MergePolicy
        /// Top-level fields computed from the rest of the document.
        public var derived: [String: Derivation]
        /// Top-level fields that count documents below this one.
        public var counted: [String: DocumentCount]
        /// When a write of such a document is checkpointed (nil: the schema says nothing).
        public var checkpoint: CheckpointPolicy?
        /// How many such documents a collection keeps (nil: all).
        public var retention: RetentionPolicy?
        /// Schemas the IDs of the path must meet, by placeholder
        /// (`"x-cairn": {"ids": {"phone": {"pattern": "^\\+[1-9][0-9]{6,14}$"}}}`): a document's own
        /// fields are its schema's, the IDs of its path these.
        public var ids: [String: Schema] = [:]
        /// The shared content a document of this kind answers, and where it names the item
        /// and the version (`"x-cairn": {"pins": {…}}`); nil when it answers none.
        public var pin: ContentPin?
        /// The top-level fields that hold assets (`"x-cairn": {"assets": {…}}`), by name.
        public var assets: [String: AssetField] = [:]

        /// What is wrong with `document` as the document at `path`: the IDs of its path, then
        /// its fields; [] when both are right.
        public func validate(_ document: JSONValue, at path: DocumentPath) -> [ValidationError] {
            var errors: [ValidationError] = []
            let captures = pattern.match(path) ?? [:]
            for (name, schema) in ids.sorted(by: { $0.key < $1.key }) {
                guard let id = captures[name] else { continue }
                errors += schema.validate(.string(id)).map { error in
                    ValidationError(
                        pointer: "{\(name)}", keyword: error.keyword,
                        schemaPath: "/x-cairn/ids/\(name)" + error.schemaPath,
                        message: "the ID \(String(reflecting: id)) " + error.message)
                }
            }
            return errors + schema.validate(document) + assetErrors(in: document)
        }

        /// All the computed fields' names.
        public var computedFields: [String] { Array(derived.keys) + Array(counted.keys) }

        /// `document` with its derived fields computed; with `documents` (the documents of a
        /// counted collection), its counts too — without, they are left as they are.
        public func filled(_ document: JSONValue, documents: ((DocumentCount) -> [JSONValue])? = nil) -> JSONValue {
            filled(document, counting: documents.map { documents in { _, count in count.count(documents(count)) } })
        }

        /// `document` with its derived fields computed; with `counting`, each count's field
        /// set to what it gives for the field's name and count — without, left as it is.
        public func filled(_ document: JSONValue, counting: ((String, DocumentCount) -> JSONValue)?) -> JSONValue {
            guard case .object(var fields) = document, !derived.isEmpty || !counted.isEmpty else { return document }
            if let counting {
                for (name, count) in counted { fields[name] = counting(name, count) }
            }
            // Ratios read counts and other fields: everything else first.
            for (name, derivation) in derived {
                if case .ratio = derivation { continue }
                fields[name] = derivation.compute(.object(fields))
            }
            for (name, derivation) in derived {
                if case .ratio = derivation { fields[name] = derivation.compute(.object(fields)) }
            }
            return .object(fields)
        }
    }

    public let kinds: [Kind]
    /// The collection of a content set (`assessments` for `assessments/{assessmentId}/…`);
    /// nil for a set of progress (paths under `users/{uid}/`).
    public let contentCollection: String?
    /// The set's version and how documents move up to it (``SchemaMigrations/fileName``).
    public let migrations: SchemaMigrations

    /// The set of a store without schemas: no kinds, so every document merges by `fields`
    /// and nothing is checked or computed; version 1.
    public static let empty = SchemaSet(kinds: [], migrations: .initial)

    private init(kinds: [Kind], migrations: SchemaMigrations) {
        self.kinds = kinds
        self.migrations = migrations
        contentCollection = nil
    }

    /// Whether the set describes shared content rather than progress.
    public var isContent: Bool { contentCollection != nil }

    /// Reads a set from its files (name → content). Every file must be a schema with an
    /// `x-cairn.path` and readable `x-merge` annotations, and no two may name the same paths;
    /// `migrations.json`, when present, declares the version and the migrations. Either every
    /// kind is marked `"content": true` (then their paths start with the same literal
    /// collection and a placeholder for the item) or none is.
    public init(files: [String: [UInt8]]) throws(SchemaSetError) {
        var kinds: [Kind] = []
        // The first kind read decides whether the set is content, and of which collection.
        var content: (file: String, collection: String?)?
        migrations =
            try files[SchemaMigrations.fileName].map { (bytes) throws(SchemaSetError) in
                try SchemaMigrations(json: bytes)
            } ?? .initial
        for name in files.keys.sorted() where name != SchemaMigrations.fileName {
            let json: JSONValue
            do {
                json = try JSONParser().parse(files[name]!)
            } catch {
                throw SchemaSetError(file: name, reason: error.description)
            }
            guard case .object = json else { throw SchemaSetError(file: name, reason: "a schema file holds a JSON object") }
            guard case .string(let text)? = json.field("x-cairn")?.field("path") else {
                throw SchemaSetError(file: name, reason: "it names no documents: add \"x-cairn\": {\"path\": \"users/{uid}/…\"}")
            }
            let marked = json.field("x-cairn")?.field("content")
            guard marked == nil || marked == .bool(true) || marked == .bool(false) else {
                throw SchemaSetError(file: name, reason: "x-cairn.content is true (shared content) or false (progress)")
            }
            let isContent = marked == .bool(true)
            guard let pattern = PathPattern(text), case .literal(let root)? = pattern.segments.first,
                case .placeholder? = pattern.segments.dropFirst().first,
                isContent ? root != StoreLayout.usersFolder : root == StoreLayout.usersFolder
            else {
                throw SchemaSetError(
                    file: name,
                    reason: isContent
                        ? "x-cairn.path \(text) is not a content path: a literal collection and the item's placeholder, like assessments/{assessmentId}"
                        : "x-cairn.path \(text) is not a document path under users/{uid}/")
            }
            let collection = isContent ? root : nil
            if let content, content.collection != collection {
                throw SchemaSetError(
                    file: name,
                    reason: content.collection == nil || collection == nil
                        ? "it is \(isContent ? "" : "not ")marked \"content\": true, and \(content.file) is\(isContent ? " not" : ""); a set describes progress or content, not both"
                        : "its collection \(root) is not \(content.collection!), the collection of \(content.file); a content set describes one collection"
                )
            }
            content = content ?? (name, collection)
            if let other = kinds.first(where: { $0.pattern == pattern }) {
                throw SchemaSetError(file: name, reason: "x-cairn.path \(text) is also the path of \(other.file)")
            }
            let policy: MergePolicy
            do {
                policy = try MergePolicy(schema: json)
            } catch {
                throw SchemaSetError(file: name, reason: error.description)
            }
            var checkpoint: CheckpointPolicy?
            if let annotation = json.field("x-cairn")?.field("checkpoint") {
                guard let policy = CheckpointPolicy(annotation: annotation) else {
                    throw SchemaSetError(
                        file: name, reason: "x-cairn.checkpoint is \"immediate\", {\"throttle\": seconds} or {\"debounce\": seconds}")
                }
                checkpoint = policy
            }
            var retention: RetentionPolicy?
            if let annotation = json.field("x-cairn")?.field("retention") {
                guard let policy = RetentionPolicy(annotation: annotation) else {
                    throw SchemaSetError(file: name, reason: "x-cairn.retention is {\"keep\": N, \"by\": \"field\"} with N ≥ 1")
                }
                retention = policy
            }
            var pin: ContentPin?
            if let annotation = json.field("x-cairn")?.field("pins") {
                guard !isContent else {
                    throw SchemaSetError(
                        file: name, reason: "x-cairn.pins is for progress that answers content; shared content pins nothing — remove it")
                }
                do {
                    pin = try ContentPin(annotation: annotation)
                } catch {
                    throw SchemaSetError(file: name, reason: error.message)
                }
            }
            var assets: [String: AssetField] = [:]
            if let annotation = json.field("x-cairn")?.field("assets") {
                guard !isContent else {
                    throw SchemaSetError(
                        file: name, reason: "x-cairn.assets is for progress; shared content keeps no private assets — remove it")
                }
                do {
                    assets = try AssetField.fields(annotation: annotation, schema: json)
                } catch {
                    throw SchemaSetError(file: name, reason: error.message)
                }
            }
            var ids: [String: Schema] = [:]
            for (placeholder, schema) in json.field("x-cairn")?.field("ids")?.objectValue ?? [:] {
                guard pattern.placeholders.contains(placeholder), case .object = schema else {
                    throw SchemaSetError(
                        file: name, reason: "x-cairn.ids.\(placeholder) names no placeholder of \(text), or is not a schema")
                }
                ids[placeholder] = Schema(schema)
            }
            var derived: [String: Derivation] = [:]
            var counted: [String: DocumentCount] = [:]
            for (key, property) in json.field("properties")?.objectValue ?? [:] {
                if let annotation = property.field("x-merge")?.field("derive") {
                    derived[key] = Derivation(annotation: annotation)
                    counted[key] = DocumentCount(annotation: annotation)
                }
            }
            kinds.append(
                Kind(
                    file: name, pattern: pattern, schema: Schema(json), policy: policy,
                    derived: derived, counted: counted, checkpoint: checkpoint, retention: retention, ids: ids, pin: pin,
                    assets: assets))
        }
        self.kinds = kinds
        contentCollection = content?.collection
    }

    /// The kind of document at `path`: the matching pattern with the most literal segments;
    /// nil when no schema describes it (such a document is not checked and merges by fields).
    public func kind(of path: DocumentPath) -> Kind? {
        var best: Kind?
        for kind in kinds where kind.pattern.matches(path) {
            if best.map({ $0.pattern.specificity < kind.pattern.specificity }) ?? true { best = kind }
        }
        return best
    }

    /// The policy the document at `path` merges by.
    public func policy(for path: DocumentPath) -> MergePolicy {
        kind(of: path)?.policy ?? .plain
    }

    /// Merges the document at `path` under its policy, computes its derived fields again,
    /// and names the document in the records (records about derived fields are dropped:
    /// nothing of them is lost, they are computed).
    public func merge(
        _ path: DocumentPath, base: JSONValue?, ours: JSONValue?, theirs: JSONValue?,
        context: MergeContext = MergeContext()
    ) -> MergeOutcome {
        let kind = kind(of: path)
        var outcome = (kind?.policy ?? .plain).merge(base: base, ours: ours, theirs: theirs, context: context)
        if let kind, let value = outcome.value {
            outcome.value = kind.filled(value)
            outcome.conflicts.removeAll { record in
                kind.computedFields.contains { record.pointer == "/" + MergePolicy.escape($0) }
            }
            // A record of the whole document shows what was decided, not the computed fields
            // (counted again after the merge, so the values would be stale).
            func withoutComputed(_ value: JSONValue?) -> JSONValue? {
                guard case .object(var fields)? = value else { return value }
                for name in kind.computedFields { fields[name] = nil }
                return .object(fields)
            }
            for index in outcome.conflicts.indices where outcome.conflicts[index].pointer.isEmpty {
                outcome.conflicts[index].kept = withoutComputed(outcome.conflicts[index].kept)
                outcome.conflicts[index].replaced = withoutComputed(outcome.conflicts[index].replaced)
            }
        }
        if let kind, !kind.assets.isEmpty {
            kind.keepAssetsWhole(&outcome, base: base, ours: ours, theirs: theirs)
        }
        for index in outcome.conflicts.indices { outcome.conflicts[index].document = path }
        return outcome
    }

    /// `document` as it is stored at `path`: its derived fields computed (its counts too,
    /// from `documents`: the documents of a counted collection below `path`).
    public func filled(
        _ document: JSONValue, at path: DocumentPath,
        documents: ((DocumentCount) -> [JSONValue])? = nil
    ) -> JSONValue {
        kind(of: path)?.filled(document, documents: documents) ?? document
    }

    /// The documents above `path` that count documents like it: their counts change when it
    /// is written or deleted.
    public func owners(affectedBy path: DocumentPath) -> [DocumentPath] {
        var owners: [DocumentPath] = []
        guard !kinds.isEmpty else { return owners }
        var length = 2
        while length < path.segments.count {
            let owner = DocumentPath(checkedSegments: Array(path.segments.prefix(length)))
            if let kind = kind(of: owner), kind.counted.values.contains(where: { $0.contains(path, below: owner) }) {
                owners.append(owner)
            }
            length += 2
        }
        return owners
    }

    /// What is wrong with `document` as the document at `path`: [] when its schema accepts it
    /// (or no schema describes it).
    public func validate(_ document: JSONValue, at path: DocumentPath) -> [ValidationError] {
        kind(of: path)?.validate(document, at: path) ?? []
    }
}

/// A schema set that cannot be used: which file, and why.
public struct SchemaSetError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public var description: String { "schema \(file): \(reason)" }
}
