/// How one case of a test run went: a scenario of a file, or a golden case folder.
public struct CaseResult: Sendable {
    /// The kinds of case.
    public enum Kind: String, Sendable {
        case scenario, golden
    }

    /// The scenario's name, or the golden folder's.
    public var name: String
    /// The scenario file or the golden case folder (or the path given, when it holds none).
    public var file: String
    public var kind: Kind
    /// Why it failed; nil when it passed.
    public var failure: StoryFailure?
    /// How long it took, in seconds.
    public var seconds: Double

    public var passed: Bool { failure == nil }

    public init(name: String, file: String, kind: Kind, failure: StoryFailure?, seconds: Double) {
        self.name = name
        self.file = file
        self.kind = kind
        self.failure = failure
        self.seconds = seconds
    }
}
