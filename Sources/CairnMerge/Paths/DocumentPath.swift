/// The path of one document, as Firestore spells it: collection and document IDs in turn,
/// `users/u1/books/b1`.
///
/// The document is the file `users/u1/books/b1.json`; its subcollections live in the
/// folder `users/u1/books/b1/`.
public struct DocumentPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The IDs of the path, an even number of them, at least two.
    public let segments: [String]

    /// Parses and checks a document path.
    public init(_ text: String) throws(PathError) {
        let segments = try Self.split(text)
        guard segments.count % 2 == 0 else {
            throw PathError(
                rule: .notADocument, path: text,
                explanation:
                    "it names a collection (an odd number of IDs); a document path alternates collection/document, like users/u1/books/b1")
        }
        self.segments = segments
    }

    init(checkedSegments: [String]) {
        segments = checkedSegments
    }

    /// The document that a file of the working tree stores (`users/u1.json` is `users/u1`),
    /// or nil when the file is not a document's.
    public init?(fileName: String) {
        guard let stem = DocumentID.stem(ofFileName: fileName), let path = try? DocumentPath(stem) else { return nil }
        self = path
    }

    /// The document's own ID, the last segment.
    public var id: String { segments[segments.count - 1] }

    /// The collection that holds the document.
    public var collection: CollectionPath {
        CollectionPath(checkedSegments: Array(segments.dropLast()))
    }

    /// The path as text, `/`-separated.
    public var description: String { segments.joined(separator: "/") }

    /// The file that stores the document, relative to the store: `users/u1/books/b1.json`.
    public var fileName: String { description + ".json" }

    /// The folder that holds the document's subcollections: `users/u1/books/b1`.
    public var folderName: String { description }

    /// Whether `other` is this document or lies in one of its subcollections.
    public func contains(_ other: DocumentPath) -> Bool {
        other.segments.count >= segments.count && Array(other.segments.prefix(segments.count)) == segments
    }

    /// By the bytes of the text (`description`), compared segment by segment without
    /// making it: sorting thousands of paths made two strings a comparison.
    public static func < (left: DocumentPath, right: DocumentPath) -> Bool {
        for index in 0..<min(left.segments.count, right.segments.count) {
            let (first, second) = (left.segments[index].utf8, right.segments[index].utf8)
            if first.elementsEqual(second) { continue }
            // The texts first differ in this segment, or where one of the two segments ends:
            // there its text goes on with `/`, or ends with its last segment.
            var (a, b) = (first.makeIterator(), second.makeIterator())
            while true {
                switch (a.next(), b.next()) {
                case (let x?, let y?):
                    if x != y { return x < y }
                case (nil, let y?):
                    return index + 1 < left.segments.count ? UInt8(ascii: "/") < y : true
                case (let x?, nil):
                    return index + 1 < right.segments.count ? x < UInt8(ascii: "/") : false
                case (nil, nil):
                    return false  // not reached: the two segments differ
                }
            }
        }
        return left.segments.count < right.segments.count
    }

    /// Splits a path into checked IDs.
    static func split(_ text: String) throws(PathError) -> [String] {
        if text.isEmpty {
            throw PathError(rule: .empty, path: text, explanation: "the path is empty")
        }
        // Split at the byte: a '/' followed by a combining mark is one Character, which
        // splitting by Characters would leave inside an ID.
        let segments = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        if segments.contains(where: \.isEmpty) {
            throw PathError(
                rule: .emptySegment, path: text,
                explanation: "it has an empty segment (a leading, trailing or doubled '/')")
        }
        for segment in segments {
            try DocumentID.validate(segment, in: text)
        }
        return segments
    }
}
