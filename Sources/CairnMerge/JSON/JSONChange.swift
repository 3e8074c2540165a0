/// One value that changed from one version of a document to the next: its JSON pointer and
/// the value before and after (nil: absent). Lists of them are what `cairn diff` and
/// `cairn log -p` print, one line each: `/sections/s3/completed: false → true`.
public struct JSONChange: Hashable, Sendable, CustomStringConvertible {
    /// Where, as a JSON pointer (RFC 6901; empty for the whole document).
    public var pointer: String
    /// The value before; nil when there was none.
    public var before: JSONValue?
    /// The value after; nil when there is none any more.
    public var after: JSONValue?

    public init(pointer: String, before: JSONValue?, after: JSONValue?) {
        self.pointer = pointer
        self.before = before
        self.after = after
    }

    /// `pointer: before → after`, each value on one line (shortened past 200 characters).
    public var description: String {
        "\(pointer.isEmpty ? "/" : pointer): \(JSONDifference.show(before)) → \(JSONDifference.show(after))"
    }

    /// The changes from `before` to `after`, in the order of their pointers: objects key by
    /// key (keys in canonical order), arrays element by element (elements added at the end
    /// each a change from absent, removed ones each a change to absent), anything else (and a
    /// value that changed its type) as a whole. Equal values make no change.
    public static func between(_ before: JSONValue?, _ after: JSONValue?, at pointer: String = "") -> [JSONChange] {
        var changes: [JSONChange] = []
        collect(before, after, at: pointer, into: &changes)
        return changes
    }

    private static func collect(_ before: JSONValue?, _ after: JSONValue?, at pointer: String, into changes: inout [JSONChange]) {
        switch (before, after) {
        case (.object(let old)?, .object(let new)?):
            // Both hold their fields in canonical order (keys by their UTF-8 bytes): walked
            // side by side, keys compared as bytes, never as Swift strings.
            var (i, j) = (0, 0)
            while i < old.count || j < new.count {
                let order = i == old.count ? 1 : j == new.count ? -1 : Self.order(old[i].key, new[j].key)
                let key = order <= 0 ? old[i].key : new[j].key
                collect(
                    order <= 0 ? old[i].value : nil, order >= 0 ? new[j].value : nil,
                    at: pointer + "/" + MergePolicy.escape(key), into: &changes)
                if order <= 0 { i += 1 }
                if order >= 0 { j += 1 }
            }
        case (.array(let old)?, .array(let new)?):
            for index in 0..<max(old.count, new.count) {
                collect(
                    index < old.count ? old[index] : nil, index < new.count ? new[index] : nil,
                    at: pointer + "/\(index)", into: &changes)
            }
        default:
            if JSONValue.same(before, after) { return }
            changes.append(JSONChange(pointer: pointer, before: before, after: after))
        }
    }

    /// -1, 0 or 1 as `left`'s UTF-8 bytes come before, equal or after `right`'s.
    private static func order(_ left: String, _ right: String) -> Int {
        if JSONObject.sameBytes(left, right) { return 0 }
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
    }
}
