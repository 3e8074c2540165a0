import CairnMerge

/// What a put or a delete did to one document, as a count above it sees it: the document
/// before and after (nil: none, or a file that is no document — one that does not parse, or
/// a symbolic link —, which no count takes). See ``Store/adjustCounts(after:)``.
struct CountedChange {
    var path: DocumentPath
    var old: JSONValue?
    var new: JSONValue?
}
