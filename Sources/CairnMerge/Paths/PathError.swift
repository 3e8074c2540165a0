/// Why a path or an ID was refused: the offending text, the rule it breaks, and what to do.
public struct PathError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Rule: String, Sendable, Hashable {
        case empty
        case tooLong
        case slash
        case backslash
        case dotName
        case reserved
        case controlCharacter
        case leadingDot
        case jsonSuffix
        case shortName
        case emptySegment
        case notADocument
        case notACollection
        case outsideStore
        case caseCollision
    }

    public var rule: Rule
    /// The full path or ID given.
    public var path: String
    /// The segment (ID) that broke the rule, when one did.
    public var id: String?
    /// One sentence: the rule and what to do.
    public var explanation: String

    public init(rule: Rule, path: String, id: String? = nil, explanation: String) {
        self.rule = rule
        self.path = path
        self.id = id
        self.explanation = explanation
    }

    public var description: String {
        if let id, id != path {
            return "invalid ID \(Self.show(id)) in \(Self.show(path)): \(explanation)"
        }
        if id != nil {
            return "invalid ID \(Self.show(path)): \(explanation)"
        }
        return "invalid path \(Self.show(path)): \(explanation)"
    }

    /// Quotes a path for a message, with control characters made visible.
    static func show(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        if shown.count > 80 { shown = String(shown.prefix(80)) + "…" }
        return "\"" + shown + "\""
    }
}
