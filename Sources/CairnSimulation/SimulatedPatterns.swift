import CairnCore
import CairnMerge
import CairnSystem

/// The path patterns of the kinds a simulation writes: which kind lives below which (its
/// parent: the kind whose pattern is the longest prefix of its own), and the documents of a
/// kind a store holds, found by listing its collections.
struct SimulatedPatterns {
    let kinds: [SchemaSet.Kind]

    static func segments(_ kind: SchemaSet.Kind) -> [String] {
        kind.pattern.description.split(separator: "/").map(String.init)
    }

    /// The kind whose documents hold `kind`'s (nil: none does).
    func parent(of kind: SchemaSet.Kind) -> SchemaSet.Kind? {
        let own = Self.segments(kind)
        return kinds.filter { other in
            let segments = Self.segments(other)
            return segments.count < own.count && segments.count > 2 && Array(own.prefix(segments.count)) == segments
        }.max { Self.segments($0).count < Self.segments($1).count }
    }

    /// Whether some kind's documents live below `kind`'s.
    func hasChildren(_ kind: SchemaSet.Kind) -> Bool {
        let own = Self.segments(kind)
        return kinds.contains { other in
            let segments = Self.segments(other)
            return segments.count > own.count && Array(segments.prefix(own.count)) == own
        }
    }

    /// The documents of `kind` in `store`, sorted.
    func documents(of kind: SchemaSet.Kind, in store: Store) throws(CairnError) -> [DocumentPath] {
        let segments = Self.segments(kind)
        var prefixes: [[String]] = [[segments[0], store.uid]]
        for index in 2..<segments.count {
            let segment = segments[index]
            if index % 2 == 0 || !(segment.hasPrefix("{") && segment.hasSuffix("}")) {
                prefixes = prefixes.map { $0 + [segment] }
                continue
            }
            var next: [[String]] = []
            let last = index == segments.count - 1
            for prefix in prefixes {
                let collection: CollectionPath
                do {
                    collection = try CollectionPath(prefix.joined(separator: "/"))
                } catch {
                    continue
                }
                if last {
                    next += try store.list(collection).map { prefix + [$0] }
                } else {
                    // A document in the middle of the path may not exist: its folder does.
                    let folder = store.folder + "/" + collection.description
                    let ids = FileSystem.names(in: folder).filter { FileSystem.kind(folder + "/" + $0) == .folder }
                    next += Set(ids + (try store.list(collection))).sorted().map { prefix + [$0] }
                }
            }
            prefixes = next
        }
        var found: [DocumentPath] = []
        for prefix in prefixes {
            guard let path = try? DocumentPath(prefix.joined(separator: "/")), kind.pattern.match(path) != nil else { continue }
            if try store.document(at: path) != nil { found.append(path) }
        }
        return found.sorted()
    }
}
