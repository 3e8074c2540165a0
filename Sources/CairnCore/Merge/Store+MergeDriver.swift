import CairnMerge

extension Store {
    /// Opens the store whose working tree is `folder`, whatever home holds it (git runs merge
    /// drivers at the top of the working tree).
    public static func open(folder: String, configuration: Configuration = .standard) throws(CairnError) -> Store {
        guard let bytes = try FileSystem.read(folder + "/" + StoreLayout.identityFile),
            case .string(let uid)? = (try? JSONParser().parse(bytes))?.field("uid")
        else {
            throw CairnError(.notFound, "\(folder) is not a Cairn store (it has no readable \(StoreLayout.identityFile))")
        }
        return try Store(uid: uid, folder: folder, configuration: configuration)
    }

    /// Merges one document as git's merge driver does: the three versions' files (`base`
    /// empty when both sides added the document), the result written over `ours`. Returns
    /// what the policies decided.
    public func mergeDriver(base: String, ours: String, theirs: String, path: String) throws(CairnError) -> [ConflictRecord] {
        guard let document = DocumentPath(fileName: path) else {
            throw CairnError(.invalidInput, "cannot merge \(path): it is not a document; resolve it by hand")
        }
        func load(_ file: String, _ role: String) throws(CairnError) -> JSONValue? {
            guard let bytes = try FileSystem.read(file) else {
                throw CairnError(.notFound, "cannot merge \(path): the \(role) version (\(file)) cannot be read")
            }
            if bytes.isEmpty { return nil }
            let json: [UInt8]
            do {
                json = try codec.json(bytes, at: path)
            } catch {
                throw CairnError(
                    error.code, "cannot merge \(path): the \(role) version: \(error.message)", remedy: error.remedy, cause: error)
            }
            do {
                return try JSONParser().parse(json)
            } catch {
                throw CairnError(
                    .invalidInput, "cannot merge \(path): the \(role) version is not valid JSON (\(error.description)); resolve it by hand",
                    cause: error)
            }
        }
        let outcome = try schemaSet().merge(
            document, base: try load(base, "common"), ours: try load(ours, "current"), theirs: try load(theirs, "other"),
            context: MergeContext(clock: clock()))
        guard let value = outcome.value else {
            throw CairnError(.invalidInput, "cannot merge \(path): the policies leave no document; resolve it by hand")
        }
        try FileSystem.writeAtomically(codec.stored(value.canonicalBytes(), at: path), to: ours)
        return outcome.conflicts
    }
}
