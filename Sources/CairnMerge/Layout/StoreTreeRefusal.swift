/// Why a file cannot be in a user's store (``StoreTree/refusal(of:mode:uid:)``). Each case
/// carries the file's path as shown (its names joined by `/`); the description is the reason
/// Cairn gives.
public enum StoreTreeRefusal: Sendable, Hashable, CustomStringConvertible {
    /// A name on the file's path cannot be in a tree; the path is quoted when it holds control
    /// characters or bytes that are not UTF-8.
    case badName(path: String, problem: TreeNameProblem)
    case executable(path: String)
    case symbolicLink(path: String)
    case submodule(path: String)
    /// A git file mode that is none of the above nor a plain file's.
    case otherMode(path: String, mode: UInt32)
    /// Neither under `users/` nor one of the store's own files.
    case outsideTheStore(path: String, uid: String)
    /// Under `users/` but not `users/<uid>`.
    case anotherUser(path: String, uid: String)
    /// Under `users/<uid>` but not the file of a document.
    case notADocument(path: String, uid: String)

    public var description: String {
        switch self {
        case .badName(let path, let problem): "\(path): \(problem)"
        case .executable(let path): "\(path) is executable; a store holds plain files only"
        case .symbolicLink(let path): "\(path) is a symbolic link; a store holds plain files only"
        case .submodule(let path): "\(path) is a submodule; a store holds plain files only"
        case .otherMode(let path, let mode): "\(path) has file mode \(String(mode, radix: 8)); a store holds plain files only"
        case .outsideTheStore(let path, let uid): "\(path) is outside the store's folders (users/\(uid)/, .cairn/)"
        case .anotherUser(let path, let uid): "\(path) belongs to another user than \(uid)"
        case .notADocument(let path, let uid): "\(path) is not a document's file (users/\(uid)/…/ID.json with valid IDs)"
        }
    }
}
