import CairnCore
import CairnMerge

extension DocumentPath {
    /// Parses a document path given on the command line, a refusal as a store error.
    static func parsing(_ text: String) throws(CairnError) -> DocumentPath {
        do {
            return try DocumentPath(text)
        } catch {
            throw CairnError(.invalidInput, error.description + "; nothing was changed", cause: error)
        }
    }
}

extension CollectionPath {
    /// Parses a collection path given on the command line, a refusal as a store error.
    static func parsing(_ text: String) throws(CairnError) -> CollectionPath {
        do {
            return try CollectionPath(text)
        } catch {
            throw CairnError(.invalidInput, error.description, cause: error)
        }
    }
}
