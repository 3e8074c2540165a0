import CairnMerge

/// A JSON object of a scenario file being read strictly: every key must be one the format
/// has, and each value of the right type; a failure names the JSON pointer.
struct ScenarioObject {
    let fields: JSONObject
    let pointer: String

    /// `value` as an object at `pointer`, where `what` is what it should be (`a step`).
    init(_ value: JSONValue, at pointer: String, what: String) throws(StoryFailure) {
        guard case .object(let fields) = value else {
            throw StoryFailure("\(what) is a JSON object, not a JSON \(value.typeName)", pointer: pointer)
        }
        self.fields = fields
        self.pointer = pointer
    }

    /// Refuses keys other than `allowed`, saying which keys `what` has.
    func allow(_ allowed: [String], in what: String) throws(StoryFailure) {
        for key in fields.keys.sorted() where !allowed.contains(key) {
            throw StoryFailure(
                "unknown key \"\(key)\"; \(what) has \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))",
                pointer: pointer + "/" + MergePolicy.escape(key))
        }
    }

    func at(_ key: String) -> String { pointer + "/" + MergePolicy.escape(key) }

    func value(_ key: String) throws(StoryFailure) -> JSONValue {
        guard let value = fields[key] else { throw StoryFailure("\"\(key)\" is missing", pointer: pointer) }
        return value
    }

    func string(_ key: String) throws(StoryFailure) -> String {
        guard case .string(let text) = try value(key) else {
            throw StoryFailure("\"\(key)\" is a string", pointer: at(key))
        }
        return text
    }

    func optionalString(_ key: String) throws(StoryFailure) -> String? {
        fields[key] == nil ? nil : try string(key)
    }

    func bool(_ key: String, default fallback: Bool) throws(StoryFailure) -> Bool {
        guard let value = fields[key] else { return fallback }
        guard case .bool(let flag) = value else { throw StoryFailure("\"\(key)\" is true or false", pointer: at(key)) }
        return flag
    }

    /// A key whose only value is `true` (`"sync": true`).
    func flag(_ key: String) throws(StoryFailure) {
        guard fields[key] == .bool(true) else { throw StoryFailure("\"\(key)\" is true", pointer: at(key)) }
    }

    func object(_ key: String) throws(StoryFailure) -> JSONValue {
        let value = try value(key)
        guard case .object = value else { throw StoryFailure("\"\(key)\" is a JSON object", pointer: at(key)) }
        return value
    }

    func array(_ key: String) throws(StoryFailure) -> [JSONValue] {
        guard case .array(let elements) = try value(key) else { throw StoryFailure("\"\(key)\" is an array", pointer: at(key)) }
        return elements
    }

    func strings(_ key: String) throws(StoryFailure) -> [String] {
        var strings: [String] = []
        for (index, element) in try array(key).enumerated() {
            guard case .string(let text) = element else { throw StoryFailure("a string", pointer: at(key) + "/\(index)") }
            strings.append(text)
        }
        return strings
    }
}
