/// What a tree of a content item's repository may hold, checked by the server's hook on every
/// commit an author pushes: the item's documents (`<collection>/<item>.json` and
/// `<collection>/<item>/…/<id>.json` whose every ID is valid), `.gitattributes` and files
/// under `.cairn/`; plain files with good names only (``StoreTree/fileRefusal(of:mode:)``).
public enum ContentTree {
    /// Why the file at `components` (the names from the top of the tree) with git file `mode`
    /// cannot be in the repository of `item` of `collection`; nil when it can.
    public static func refusal(of components: [[UInt8]], mode: UInt32, collection: String, item: String) -> String? {
        if let refusal = StoreTree.fileRefusal(of: components, mode: mode) { return refusal.description }
        let names = components.map { String(decoding: $0, as: UTF8.self) }
        if StoreLayout.isOwnFile(names: names) { return nil }
        let shown = names.joined(separator: "/")
        guard names.count >= 2, names[0] == collection,
            names[1] == item + ".json" || (names.count >= 3 && names[1] == item)
        else {
            return "\(shown) is outside the item's folders (\(collection)/\(item).json, \(collection)/\(item)/, .cairn/)"
        }
        guard DocumentPath(fileName: shown) != nil else {
            return "\(shown) is not a document's file (\(collection)/\(item)/…/ID.json with valid IDs)"
        }
        return nil
    }
}
