import Synchronization

/// The regular expressions of one schema (`pattern`, `patternProperties`), each compiled the
/// first time an instance needs it and kept as long as the schema: compiling one takes longer
/// than checking a whole document against it. Shared by the copies of a ``Schema``; an
/// expression is compiled and used under the lock only, so that threads checking documents
/// against one schema at once never share one unguarded.
package final class SchemaPatterns: Sendable {
    private let compiled = Mutex<[String: Regex<AnyRegexOutput>?]>([:])

    package init() {}

    /// Whether `text` contains a match of `pattern` (ECMA-262 patterns are not anchored);
    /// nil when the pattern cannot be compiled.
    package func matches(_ text: String, _ pattern: String) -> Bool? {
        compiled.withLock { cache in
            if cache[pattern] == nil { cache[pattern] = .some(try? Regex(pattern)) }
            guard case .some(.some(let regex)) = cache[pattern] else { return nil }
            return (try? regex.firstMatch(in: text)) != nil
        }
    }
}
