/// The documents a schema describes, as a path with placeholders:
/// `users/{uid}/books/{bookId}` matches `users/u1/books/b1`.
public struct PathPattern: Hashable, Sendable, CustomStringConvertible {
    enum Segment: Hashable, Sendable {
        case literal(String)
        case placeholder(String)
    }

    let segments: [Segment]

    /// Parses a pattern; it must name documents (an even number of segments).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.count % 2 == 0, !parts.contains(where: \.isEmpty) else { return nil }
        var segments: [Segment] = []
        for part in parts {
            if part.hasPrefix("{"), part.hasSuffix("}"), part.count > 2 {
                segments.append(.placeholder(String(part.dropFirst().dropLast())))
            } else {
                guard (try? DocumentID.validate(part, in: text)) != nil else { return nil }
                segments.append(.literal(part))
            }
        }
        self.segments = segments
    }

    public var description: String {
        segments.map {
            switch $0 {
            case .literal(let text): text
            case .placeholder(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// The names of the placeholders, in order.
    public var placeholders: [String] {
        segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// The values of the placeholders when `path` matches, else nil.
    public func match(_ path: DocumentPath) -> [String: String]? {
        guard path.segments.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, id) in zip(segments, path.segments) {
            switch segment {
            case .literal(let text): guard text == id else { return nil }
            case .placeholder(let name): values[name] = id
            }
        }
        return values
    }

    /// Whether `path` is one of this pattern's documents (``match(_:)`` without the values).
    public func matches(_ path: DocumentPath) -> Bool {
        guard path.segments.count == segments.count else { return false }
        for (segment, id) in zip(segments, path.segments) {
            if case .literal(let text) = segment, text != id { return false }
        }
        return true
    }

    /// The document path with each placeholder replaced by its value; nil when a value is
    /// missing or is not a valid ID.
    public func fill(_ values: [String: String]) -> DocumentPath? {
        var ids: [String] = []
        for segment in segments {
            switch segment {
            case .literal(let text): ids.append(text)
            case .placeholder(let name):
                guard let value = values[name] else { return nil }
                ids.append(value)
            }
        }
        return try? DocumentPath(ids.joined(separator: "/"))
    }

    /// How many literal segments: of two patterns that match, the more literal one applies
    /// (`users/{uid}/progress/exam` over `users/{uid}/progress/{docId}`).
    var specificity: Int {
        segments.filter { if case .literal = $0 { true } else { false } }.count
    }
}
