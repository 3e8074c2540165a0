import CairnMerge

/// A place in a document an edit can change, and how its policy wants it changed.
struct EditSite {
    enum Change {
        case counter
        case extreme(max: Bool)
        case union
        /// Write one entry of an `entries` map stamped by `by` (the site's schema is the map's).
        case entry(by: String)
        /// Draw the value again (under `lww`, `highest` or `fields`); `policy`: its own.
        case redraw(MergePolicy)
    }

    var change: Change
    /// Where, as keys from the document's top.
    var tokens: [String]
    var schema: JSONValue
    /// The `lww` and `highest` objects around it, outermost first: their stamps are raised.
    var scopes: [(tokens: [String], policy: MergePolicy)]
}
