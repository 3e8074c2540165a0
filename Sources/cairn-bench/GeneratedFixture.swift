import CairnMerge
import CairnMergeLaws

/// The documents of a benchmark store drawn from any schema set (`cairn-bench --schema`), for
/// an app whose documents the hand-written ``Fixture`` does not know: valid random documents
/// of every kind the set's documents can be generated for (``DocumentGenerator``), in turn,
/// each at a fresh path, and changes made as a device makes them (an edit its merge policy
/// expects; a new document of an append-only kind). The same set, size and seed give the
/// same documents.
struct GeneratedFixture {
    let set: SchemaSet
    let generator: DocumentGenerator
    /// The kinds documents are generated for.
    let kinds: [SchemaSet.Kind]

    init(set: SchemaSet, name: String) throws {
        self.set = set
        generator = DocumentGenerator(set: set, uid: Fixture.uid)
        let skipped = Set(generator.unsupported().map(\.file))
        kinds = set.kinds.filter { !skipped.contains($0.file) }
        guard !kinds.isEmpty else {
            throw Command.Failure(
                description:
                    "no document of the schema set \(name) can be generated (cairn simulate --schema says why); benchmark it with a set that has one"
            )
        }
    }

    /// `documents` documents, path (without `.json`) and content. A kind whose paths run out
    /// (one document a user, like a profile) stops being drawn after its first collisions.
    func all(documents: Int) throws -> [(path: String, value: JSONValue)] {
        var random = SplitMix(seed: UInt64(documents))
        var result: [(path: String, value: JSONValue)] = []
        var taken = Set<String>()
        var drawing = kinds
        var misses = [String: Int]()
        var turn = 0
        while result.count < documents, !drawing.isEmpty {
            let kind = drawing[turn % drawing.count]
            turn += 1
            let path = try generator.path(of: kind, fresh: true, using: &random)
            guard taken.insert(path.description).inserted else {
                misses[kind.file, default: 0] += 1
                if misses[kind.file]! >= 3 { drawing.removeAll { $0.file == kind.file } }
                continue
            }
            let value = try generator.document(of: kind, at: path, time: Int64(turn), using: &random)
            result.append((path.description, value))
        }
        guard result.count == documents else {
            throw Command.Failure(
                description:
                    "the schema set's paths give \(result.count) distinct documents, fewer than \(documents); choose a smaller --sizes")
        }
        return result
    }

    /// `count` changes to the documents in `current` (updated as it goes), as devices make
    /// them at steps from `time` on: an edit of a document its policy lets change, else a new
    /// document of an append-only kind. With `checkpointing` false, none of a kind the app
    /// checkpoints at each write (`"checkpoint": "immediate"`): such a write is a checkpoint.
    func changes(
        _ count: Int, of current: inout [String: JSONValue], time: Int64, checkpointing: Bool = true,
        using random: inout SplitMix
    ) throws -> [(path: String, value: JSONValue)] {
        let paths = current.keys.sorted().filter { path in
            checkpointing || (try? DocumentPath(path)).flatMap { set.kind(of: $0) }.map { $0.checkpoint != .immediate } ?? false
        }
        guard !paths.isEmpty else {
            throw Command.Failure(
                description: "every generated document is of a kind checkpointed at each write; there is no plain write to time")
        }
        let noMoreChanges = Command.Failure(
            description: "the generated documents of this schema set admit no more changes; benchmark it with a larger store")
        var result: [(path: String, value: JSONValue)] = []
        var step = time
        var misses = 0
        while result.count < count {
            step += 1
            let path = paths[Int(random.next() % UInt64(paths.count))]
            let document = try DocumentPath(path)
            // Every generated document has its kind; the misses bound the loop all the same.
            guard let kind = set.kind(of: document) else {
                misses += 1
                guard misses < count * 50 else { throw noMoreChanges }
                continue
            }
            if kind.policy.isAppendOnly {
                let fresh = try generator.path(of: kind, fresh: true, using: &random)
                guard current[fresh.description] == nil else {
                    misses += 1
                    guard misses < count * 50 else { throw noMoreChanges }
                    continue
                }
                let value = try generator.document(of: kind, at: fresh, time: step, using: &random)
                current[fresh.description] = value
                result.append((fresh.description, value))
            } else if let edit = try generator.edit(current[path]!, of: kind, at: document, time: step, using: &random) {
                current[path] = edit.document
                result.append((path, edit.document))
            } else {
                misses += 1
                guard misses < count * 50 else { throw noMoreChanges }
            }
        }
        return result
    }
}
