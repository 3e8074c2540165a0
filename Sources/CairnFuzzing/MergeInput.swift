import CairnMerge

/// The three sides of a merge, read from the first three lines of an input: base, ours,
/// theirs, each one JSON value on its line, or empty (or `-`) for an absent side.
public struct MergeInput: Sendable {
    public var base: JSONValue?
    public var ours: JSONValue?
    public var theirs: JSONValue?

    /// Small enough that a merge stays quick, deep enough for nested policies.
    static let limits = JSONLimits(maxBytes: 1 << 16, maxDepth: 16)

    /// Reads the sides; nil when a line is not JSON.
    public init?(_ lines: ArraySlice<[UInt8]>) {
        var sides: [JSONValue?] = []
        for line in lines.prefix(3) {
            if line.isEmpty || line == [UInt8(ascii: "-")] {
                sides.append(nil)
            } else {
                guard let value = try? JSONParser(limits: Self.limits).parse(line) else { return nil }
                sides.append(value)
            }
        }
        while sides.count < 3 { sides.append(nil) }
        (base, ours, theirs) = (sides[0], sides[1], sides[2])
    }

    /// The lines of an input (split at `\n`).
    static func lines(_ input: [UInt8]) -> [[UInt8]] {
        input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    }
}
