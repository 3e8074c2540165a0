/// Why a text is not a JSON document Cairn accepts, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, in a few words ("duplicate key \"a\"", "expected ',' or ']'").
    public var reason: String
    /// The byte offset of the problem in the input (0-based).
    public var offset: Int
    /// The line (1-based) and column (1-based, in bytes) of the problem.
    public var line: Int
    public var column: Int

    public var description: String {
        "invalid JSON at line \(line), column \(column): \(reason)"
    }
}
