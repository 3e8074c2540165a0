import CairnMerge

extension DocumentPath {
    /// A path Cairn builds itself, as a store error if it were not valid.
    package static func checked(_ text: String) throws(CairnError) -> DocumentPath {
        do {
            return try DocumentPath(text)
        } catch {
            throw CairnError.invalid(error)
        }
    }
}
