extension JSONValue {
    /// The value's canonical text on one line, for messages and one-line records:
    /// `{ "a": 1, "b": [ true, null ] }` — keys in canonical order, `, ` between members and
    /// `: ` after keys. (Canonical text escapes every newline inside strings, so its lines
    /// are the value's structure.)
    public var inlineText: String {
        canonicalText.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
    }

    /// ``inlineText`` cut at 200 characters (with `…`), for lines people read.
    public var shortInlineText: String {
        let text = inlineText
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
