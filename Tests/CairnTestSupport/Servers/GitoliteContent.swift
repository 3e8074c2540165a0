/// A collection of shared content a ``GitoliteServer`` serves: made by `cairn server content
/// init` in its `repositories/content/<collection>/` before gitolite adopts the items, each
/// readable by every user (`R = @all`) and writable by the collection's authors alone
/// (`RW = @<collection>-authors`), with Cairn's hook — the rules CairnCore.docc's SharedContent
/// gives.
public struct GitoliteContent: Sendable {
    public var collection: String
    public var items: [String]
    /// The content set, by name or path.
    public var schema: String
    public var authors: [String]

    public init(collection: String, items: [String], schema: String, authors: [String]) {
        self.collection = collection
        self.items = items
        self.schema = schema
        self.authors = authors
    }

    /// The lines of `gitolite.conf` for the collection.
    var configuration: String {
        """

        @\(collection)-authors = \(authors.joined(separator: " "))
        repo \(items.map { "content/\(collection)/\($0)" }.joined(separator: " "))
            R = @all
            RW = @\(collection)-authors
            option hook.pre-receive = cairn

        """
    }
}
