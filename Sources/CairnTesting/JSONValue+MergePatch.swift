import CairnMerge

extension JSONValue {
    /// The value with `patch` applied as a JSON merge patch (RFC 7386): an object patch sets
    /// its fields recursively, `null` removes a field, and anything but an object replaces the
    /// value whole (arrays too).
    public func applyingMergePatch(_ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var fields = objectValue ?? [:]
        for (key, change) in changes {
            if change == .null {
                fields[key] = nil
            } else {
                fields[key] = (fields[key] ?? .null).applyingMergePatch(change)
            }
        }
        return .object(fields)
    }
}
