/// A failure of reading or writing one of git's files: what kind of failure, a one-line
/// message naming the file, the operation that failed, and where in Cairn it was found.
///
/// The Git module turns it into a `GitError` with the same message and operation where it
/// calls into this module, so the store sees one kind of error from git, whoever wrote the file.
package struct GitFormatError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    package var code: Code
    /// One line saying what was wrong, naming the file.
    package var message: String
    /// The operation that failed: a system call (`open`, `fsync`, `rename`) or one of Cairn's
    /// own, named as libgit2 names its functions (`cairn_index_read`, `cairn_tree_update`).
    package var operation: String
    /// The file the failure is about, when there is one.
    package var path: String?
    /// The `errno` of a failed system call; nil for a file whose content is wrong.
    package var systemErrorCode: Int32?
    /// Where in Cairn the failure was found.
    package var location: SourceLocation

    package init(
        code: Code, message: String, operation: String, path: String? = nil,
        systemErrorCode: Int32? = nil, location: SourceLocation
    ) {
        self.code = code
        self.message = message
        self.operation = operation
        self.path = path
        self.systemErrorCode = systemErrorCode
        self.location = location
    }

    package var description: String { "\(operation): \(message)" }

    /// The kind of a failure. A struct over a private enumeration, so that kinds can be added
    /// without breaking the code that matches some of them.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case corrupt, notFound, locked, modified, exists, invalidUpdate, systemCall, tooLarge
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// A file or object is not what its format says it must be (cut short, a wrong header,
        /// counts that do not fit).
        package static let corrupt = Code(.corrupt)
        /// A file the one read names is missing.
        package static let notFound = Code(.notFound)
        /// Another process holds the file's lock (`<file>.lock` exists).
        package static let locked = Code(.locked)
        /// A reference no longer holds the value an update expected (another process moved it).
        package static let modified = Code(.modified)
        /// A reference to be created exists already.
        package static let exists = Code(.exists)
        /// A tree update that cannot be applied: an invalid or repeated path, a file that
        /// would become a folder or back.
        package static let invalidUpdate = Code(.invalidUpdate)
        /// A system call failed; ``GitFormatError/systemErrorCode`` says why.
        package static let systemCall = Code(.systemCall)
        /// What was to be written passes a limit of the format.
        package static let tooLarge = Code(.tooLarge)

        package var description: String {
            switch kind {
            case .corrupt: "corrupt"
            case .notFound: "not found"
            case .locked: "locked"
            case .modified: "modified"
            case .exists: "exists"
            case .invalidUpdate: "invalid update"
            case .systemCall: "system call failed"
            case .tooLarge: "too large"
            }
        }
    }

    /// Where in Cairn a failure was found.
    package struct SourceLocation: Hashable, Sendable {
        package var file: String
        package var line: Int

        package init(file: String, line: Int) {
            self.file = file
            self.line = line
        }
    }
}
