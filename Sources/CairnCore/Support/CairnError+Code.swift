extension CairnError {
    /// What kind of failure, for programs that react to it: `error.code == .busy`. A struct
    /// over a private enum, so a later version can add codes without breaking a program that
    /// switches over them (its `default` takes the new ones).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Sendable, Hashable {
            case invalidInput, notFound, alreadyExists, busy, corrupt, io, network, authentication, refused
        }

        private var kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// A path, an ID, a document or an argument that Cairn refuses.
        public static var invalidInput: Code { Code(.invalidInput) }
        /// No such document, revision, user or store.
        public static var notFound: Code { Code(.notFound) }
        /// The thing to create exists already.
        public static var alreadyExists: Code { Code(.alreadyExists) }
        /// Another process holds the store's lock; trying again later may work.
        public static var busy: Code { Code(.busy) }
        /// The store's files are not what Cairn wrote (not a store, unreadable objects).
        public static var corrupt: Code { Code(.corrupt) }
        /// The file system refused (permissions, disk full, I/O error).
        public static var io: Code { Code(.io) }
        /// The remote could not be reached or the connection broke; trying again later may work.
        public static var network: Code { Code(.network) }
        /// The remote refused the credentials, or asked for some and none were given.
        public static var authentication: Code { Code(.authentication) }
        /// The remote refused the push (its hook, its rules); trying again will not help until
        /// what it names is fixed.
        public static var refused: Code { Code(.refused) }

        public var description: String {
            switch kind {
            case .invalidInput: "invalid input"
            case .notFound: "not found"
            case .alreadyExists: "already exists"
            case .busy: "busy"
            case .corrupt: "corrupt"
            case .io: "I/O error"
            case .network: "network failure"
            case .authentication: "authentication failed"
            case .refused: "refused"
            }
        }
    }
}
