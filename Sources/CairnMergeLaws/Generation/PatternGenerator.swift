import CairnMerge

/// Strings that match a regular expression of the simple kinds schemas use for IDs and
/// codes: anchors, literals and escapes, `.`, character classes (ranges, negation, `\d`,
/// `\w`, `\s`), groups (capturing, `(?:…)`, named) with alternation, and the quantifiers
/// `?`, `*`, `+`, `{m}`, `{m,}`, `{m,n}` (lazy or possessive forms alike).
///
/// What it cannot generate — lookaround, back-references, word boundaries, Unicode
/// properties — is refused when the pattern is read, with the reason: a generator that
/// guessed would write documents its own validator refuses.
struct PatternGenerator {
    indirect enum Node {
        /// One character of the ranges (of Unicode scalar values, none a surrogate; never empty).
        case characters([ClosedRange<UInt32>])
        /// One of these characters (what a negated class leaves; never empty).
        case choices([UInt32])
        case sequence([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?)
    }

    /// Why a pattern cannot be generated from.
    struct Unsupported: Error {
        var reason: String
    }

    let pattern: String
    let root: Node

    /// Repetitions without an upper bound stop this far above their lower bound.
    static let openRepetition = 3
    /// The longest string generated: a pattern that can make longer ones (`(a{1000}){1000}`)
    /// is refused, as no document would hold them.
    static let longest = 10_000

    init(_ pattern: String) throws(Unsupported) {
        self.pattern = pattern
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        root = try parser.alternation()
        guard parser.position == parser.scalars.count else {
            throw Unsupported(reason: "an unbalanced ')' at offset \(parser.position)")
        }
        guard Self.length(of: root) <= Self.longest else {
            throw Unsupported(reason: "its strings can be longer than \(Self.longest) characters")
        }
    }

    /// The length of the longest string `node` generates, or more than ``longest``.
    private static func length(of node: Node) -> Int {
        switch node {
        case .characters, .choices:
            return 1
        case .sequence(let nodes):
            return nodes.reduce(0) { Swift.min($0 + length(of: $1), longest + 1) }
        case .alternation(let nodes):
            return nodes.map(length(of:)).max() ?? 0
        case .repetition(let node, let min, let max):
            let (product, overflow) = length(of: node).multipliedReportingOverflow(by: max ?? min + openRepetition)
            return overflow ? longest + 1 : Swift.min(product, longest + 1)
        }
    }

    /// A string the pattern matches.
    func generate(using random: inout SplitMix) -> String {
        var scalars = String.UnicodeScalarView()
        Self.generate(root, into: &scalars, using: &random)
        return String(scalars)
    }

    private static func generate(_ node: Node, into scalars: inout String.UnicodeScalarView, using random: inout SplitMix) {
        switch node {
        case .characters(let ranges):
            let range = ranges[Int.random(in: 0..<ranges.count, using: &random)]
            // Read without surrogates, so every value is a scalar.
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) { scalars.append(scalar) }
        case .choices(let values):
            if let scalar = Unicode.Scalar(values.randomElement(using: &random)!) { scalars.append(scalar) }
        case .sequence(let nodes):
            for node in nodes { generate(node, into: &scalars, using: &random) }
        case .alternation(let nodes):
            generate(nodes[Int.random(in: 0..<nodes.count, using: &random)], into: &scalars, using: &random)
        case .repetition(let node, let min, let max):
            let count = Int.random(in: min...(max ?? min + openRepetition), using: &random)
            for _ in 0..<count { generate(node, into: &scalars, using: &random) }
        }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
        static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
        static let space: [ClosedRange<UInt32>] = [0x20...0x20, 0x09...0x0D]
        /// What `.` stands for here: printable ASCII.
        static let any: [ClosedRange<UInt32>] = [0x20...0x7E]

        mutating func alternation() throws(Unsupported) -> Node {
            var branches = [try sequence()]
            while current == "|" {
                position += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func sequence() throws(Unsupported) -> Node {
            var nodes: [Node] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                if scalar == "^" || scalar == "$" {
                    // Anchors: a generated string is a whole match, so they hold.
                    guard scalar == "^" ? nodes.isEmpty : true else {
                        throw Unsupported(reason: "an anchor '^' inside the pattern at offset \(position)")
                    }
                    position += 1
                    continue
                }
                let atom = try self.atom()
                nodes.append(try quantified(atom))
            }
            return .sequence(nodes)
        }

        mutating func quantified(_ atom: Node) throws(Unsupported) -> Node {
            var node = atom
            guard let scalar = current else { return node }
            switch scalar {
            case "?":
                position += 1
                node = .repetition(atom, min: 0, max: 1)
            case "*":
                position += 1
                node = .repetition(atom, min: 0, max: nil)
            case "+":
                position += 1
                node = .repetition(atom, min: 1, max: nil)
            case "{":
                guard let (min, max) = bounds() else { return .sequence([atom, .characters([0x7B...0x7B])]) }
                node = .repetition(atom, min: min, max: max)
            default: return node
            }
            // Lazy and possessive forms match the same strings.
            if current == "?" || current == "+" { position += 1 }
            if let next = current, "?*+".unicodeScalars.contains(next) {
                throw Unsupported(reason: "a quantifier follows a quantifier at offset \(position)")
            }
            return node
        }

        /// `{m}`, `{m,}`, `{m,n}` at the position; nil (and the position kept) when the brace
        /// is a literal.
        mutating func bounds() -> (Int, Int?)? {
            let start = position
            position += 1
            func number() -> Int? {
                var value: Int?
                while let scalar = current, ("0"..."9").contains(scalar) {
                    value = (value ?? 0) * 10 + Int(scalar.value - 0x30)
                    position += 1
                    if value! > 1_000 { return nil }
                }
                return value
            }
            guard let min = number() else {
                position = start
                return nil
            }
            var max: Int? = min
            if current == "," {
                position += 1
                max = number()
            }
            guard current == "}", max.map({ $0 >= min }) ?? true else {
                position = start
                return nil
            }
            position += 1
            return (min, max)
        }

        mutating func atom() throws(Unsupported) -> Node {
            let scalar = current!
            position += 1
            switch scalar {
            case ".": return .characters(Self.any)
            case "[": return try characterClass()
            case "\\":
                let (ranges, _) = try escape(inClass: false)
                return try Self.drawable(ranges, negated: negatedEscape)
            case "(":
                if current == "?" {
                    position += 1
                    switch current {
                    case ":": position += 1
                    case "<" where position + 1 < scalars.count && scalars[position + 1] != "=" && scalars[position + 1] != "!":
                        while let next = current, next != ">" { position += 1 }
                        guard current == ">" else { throw Unsupported(reason: "an unterminated group name") }
                        position += 1
                    default:
                        throw Unsupported(reason: "lookaround or inline options ('(?') at offset \(position - 2) are not generated")
                    }
                }
                let inner = try alternation()
                guard current == ")" else { throw Unsupported(reason: "an unclosed '('") }
                position += 1
                return inner
            case "*", "+", "?":
                throw Unsupported(reason: "a quantifier with nothing before it at offset \(position - 1)")
            default:
                return .characters([scalar.value...scalar.value])
            }
        }

        /// What a class (or an escape) draws from: its ranges less the surrogates (no scalar
        /// is one) and what lies past Unicode; negated, the printable ASCII characters
        /// outside it, else the Latin-1 and Latin Extended letters outside it. A class that
        /// leaves nothing is refused: drawing from it would never end.
        static func drawable(_ ranges: [ClosedRange<UInt32>], negated: Bool) throws(Unsupported) -> Node {
            if negated {
                for pool: ClosedRange<UInt32> in [0x21...0x7E, 0xA1...0x24F] {
                    let choices = pool.filter { value in !ranges.contains { $0.contains(value) } }
                    if !choices.isEmpty { return .choices(choices) }
                }
                throw Unsupported(reason: "a negated class that leaves no character to draw")
            }
            var valid: [ClosedRange<UInt32>] = []
            for range in ranges {
                let low = range.lowerBound, high = Swift.min(range.upperBound, 0x10FFFF)
                guard low <= high else { continue }
                if low < 0xD800 { valid.append(low...Swift.min(high, 0xD7FF)) }
                if high > 0xDFFF { valid.append(Swift.max(low, 0xE000)...high) }
            }
            guard !valid.isEmpty else { throw Unsupported(reason: "a class of no character (surrogates are no characters)") }
            return .characters(valid)
        }

        /// Whether the escape just read was a negated shorthand (`\D`, `\W`, `\S`).
        var negatedEscape = false

        /// The characters an escape stands for (after its backslash).
        mutating func escape(inClass: Bool) throws(Unsupported) -> (ranges: [ClosedRange<UInt32>], single: Bool) {
            negatedEscape = false
            guard let scalar = current else { throw Unsupported(reason: "a pattern ending in '\\'") }
            position += 1
            func single(_ value: UInt32) -> ([ClosedRange<UInt32>], Bool) { ([value...value], true) }
            switch scalar {
            case "d": return (Self.digits, false)
            case "w": return (Self.word, false)
            case "s": return (Self.space, false)
            case "D", "W", "S":
                guard !inClass else { throw Unsupported(reason: "a negated shorthand \\\(scalar) inside a class") }
                negatedEscape = true
                return (scalar == "D" ? Self.digits : scalar == "W" ? Self.word : Self.space, false)
            case "t": return single(0x09)
            case "n": return single(0x0A)
            case "r": return single(0x0D)
            case "f": return single(0x0C)
            case "v": return single(0x0B)
            case "0": return single(0)
            case "x", "u":
                let digits = scalar == "x" ? 2 : 4
                guard position + digits <= scalars.count,
                    let value = UInt32(String(String.UnicodeScalarView(scalars[position..<(position + digits)])), radix: 16)
                else {
                    throw Unsupported(reason: "a malformed \\\(scalar) escape")
                }
                position += digits
                return single(value)
            default:
                if scalar.properties.isAlphabetic || ("1"..."9").contains(scalar) {
                    throw Unsupported(
                        reason: "the escape \\\(scalar) (word boundaries, back-references, Unicode properties) is not generated")
                }
                return single(scalar.value)
            }
        }

        mutating func characterClass() throws(Unsupported) -> Node {
            var negated = false
            if current == "^" {
                negated = true
                position += 1
            }
            var ranges: [ClosedRange<UInt32>] = []
            var first = true
            while let scalar = current, scalar != "]" || first {
                first = false
                position += 1
                var low: UInt32
                if scalar == "\\" {
                    let (escaped, single) = try escape(inClass: true)
                    guard single else {
                        ranges += escaped
                        continue
                    }
                    low = escaped[0].lowerBound
                } else {
                    low = scalar.value
                }
                if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    var high = scalars[position].value
                    position += 1
                    if scalars[position - 1] == "\\" {
                        let (escaped, single) = try escape(inClass: true)
                        guard single else { throw Unsupported(reason: "a range ending in a shorthand class") }
                        high = escaped[0].lowerBound
                    }
                    guard high >= low else { throw Unsupported(reason: "a range out of order in a class") }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard current == "]" else { throw Unsupported(reason: "an unclosed '['") }
            position += 1
            return try Self.drawable(ranges, negated: negated)
        }
    }
}
