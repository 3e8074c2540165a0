import CairnMerge

extension Store {
    /// The name of the schema set the store was created with (`life-in-uk`, as `init
    /// --schema` named it); nil for a store created without one.
    public func schemaSetName() throws(CairnError) -> String? {
        guard let bytes = try FileSystem.read(absolute(StoreLayout.identityFile)),
            case .string(let name)? = (try? JSONParser().parse(bytes))?.field("schemaSet")
        else { return nil }
        return name
    }
}
