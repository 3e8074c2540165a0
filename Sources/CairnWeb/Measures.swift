import CairnMerge

/// The numbers a document's values add up to, for plotting it over time, for any schema:
///
/// - a number or a boolean (as 0 or 1) at a pointer: its value (`/score`);
/// - an array: its length (`length of /flaggedQuestions`);
/// - below a map of records (an object of two or more fields that are all objects, such as
///   `sections` keyed by section id), the records' fields taken together: booleans counted
///   where true (`true in /sections/*/completed`, the sections completed), numbers summed.
///
/// Every measure is keyed by what it says. An object is a map of records when it is one in
/// any of the versions measured together (``maps(in:)``), so a book with one section read so
/// far is measured as the book with twelve is.
enum Measures {
    static func of(_ document: JSONValue, maps: Set<String> = []) -> [String: Double] {
        var found: [String: Double] = [:]
        walk(document, pointer: "", underMap: false, maps: maps, into: &found)
        return found
    }

    /// The pointers (with `*` for the keys of maps above them) of the objects that are maps
    /// of records in any of `versions`.
    static func maps(in versions: [JSONValue]) -> Set<String> {
        var found = Set<String>()
        func visit(_ value: JSONValue, _ pointer: String) {
            guard case .object(let fields) = value else { return }
            let isMap = isMapOfRecords(fields)
            if isMap { found.insert(pointer) }
            for (key, field) in fields { visit(field, pointer + "/" + (isMap ? "*" : MergePolicy.escape(key))) }
        }
        for version in versions { visit(version, "") }
        return found
    }

    private static func isMapOfRecords(_ fields: JSONObject) -> Bool {
        fields.count >= 2 && fields.allSatisfy { if case .object = $0.value { true } else { false } }
    }

    private static func walk(_ value: JSONValue, pointer: String, underMap: Bool, maps: Set<String>, into found: inout [String: Double]) {
        switch value {
        case .object(let fields):
            let isMap = maps.contains(pointer) || isMapOfRecords(fields)
            for (key, field) in fields {
                walk(
                    field, pointer: pointer + "/" + (isMap ? "*" : MergePolicy.escape(key)), underMap: underMap || isMap, maps: maps,
                    into: &found)
            }
        case .array(let elements):
            if !underMap { found["length of " + pointer] = Double(elements.count) }
        case .bool(let flag):
            if underMap {
                found["true in " + pointer, default: 0] += flag ? 1 : 0
            } else {
                found[pointer] = flag ? 1 : 0
            }
        case .integer(let number):
            add(Double(number), at: pointer, underMap: underMap, into: &found)
        case .double(let number):
            add(number, at: pointer, underMap: underMap, into: &found)
        case .null, .string:
            break
        }
    }

    private static func add(_ number: Double, at pointer: String, underMap: Bool, into found: inout [String: Double]) {
        if underMap {
            found["sum of " + pointer, default: 0] += number
        } else {
            found[pointer] = number
        }
    }

    /// The plots worth drawing from values taken in order (a document's versions, a
    /// collection's documents), each with its point's label, measured with the same maps.
    static func plots(of values: [(label: String, value: JSONValue)], joined: Bool, limit: Int = 8) -> [Plot] {
        let maps = maps(in: values.map(\.value))
        return plots(values.map { (label: $0.label, measures: of($0.value, maps: maps)) }, joined: joined, limit: limit)
    }

    /// The plots worth drawing from measures taken in order: those that change at least once,
    /// counts of true first (the most telling), then sums, values and lengths; at most `limit`.
    static func plots(_ series: [(label: String, measures: [String: Double])], joined: Bool, limit: Int = 8) -> [Plot] {
        var keys = Set<String>()
        for entry in series { keys.formUnion(entry.measures.keys) }
        func rank(_ key: String) -> Int {
            key.hasPrefix("true in ") ? 0 : key.hasPrefix("sum of ") ? 1 : key.hasPrefix("length of ") ? 3 : 2
        }
        let ordered = keys.sorted { (rank($0), $0) < (rank($1), $1) }
        var plots: [Plot] = []
        for key in ordered where plots.count < limit {
            let points = series.compactMap { entry in entry.measures[key].map { Plot.Point(value: $0, label: entry.label) } }
            guard points.count >= 2, Set(points.map(\.value)).count > 1 else { continue }
            plots.append(Plot(title: key, points: points, joined: joined))
        }
        return plots
    }
}
