extension JSONValue {
    /// The JSON pointer of the first place (in key order) where two values (either may be
    /// absent) differ as canonical bytes; nil when they are the same.
    public static func firstDifference(_ left: JSONValue?, _ right: JSONValue?, at pointer: String = "") -> String? {
        if same(left, right) { return nil }
        switch (left, right) {
        case (.object(let a)?, .object(let b)?):
            for key in MergePolicy.keys(of: a, b).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                if let found = firstDifference(a[key], b[key], at: pointer + "/" + MergePolicy.escape(key)) { return found }
            }
            return pointer
        case (.array(let a)?, .array(let b)?) where a.count == b.count:
            for index in a.indices {
                if let found = firstDifference(a[index], b[index], at: pointer + "/\(index)") { return found }
            }
            return pointer
        default:
            return pointer
        }
    }
}
