/// An OpenSSH client configuration (`~/.ssh/config`, `/etc/ssh/ssh_config`; `ssh_config(5)`),
/// read as ssh reads it for what decides where a connection goes and which keys it offers.
///
/// As in ssh: options before the first `Host` line hold for every host; a `Host` line starts
/// a block that holds when one of its patterns (`*` and `?` as wildcards) matches the host
/// as given and none of its negated patterns (`!pattern`) does; the first value obtained for
/// an option wins, except `IdentityFile`, whose values add up in order. `Include` reads other
/// files in place (the caller finds them). `Match` blocks are skipped whole: their conditions
/// (commands to run, canonical names) are not evaluated. Keywords other than those
/// ``SSHHost`` keeps are read and left alone.
public struct SSHConfig: Sendable, Hashable {
    /// A line that means something to Cairn.
    public enum Line: Sendable, Hashable {
        /// `Host PATTERN…`.
        case host([String])
        /// `Match …`: the block that follows is skipped.
        case match
        /// `Include FILE…`.
        case include([String])
        /// Any other keyword (lowercased), with its arguments.
        case option(String, [String])
    }

    /// A line with its number in the file.
    public struct Entry: Sendable, Hashable {
        public var number: Int
        public var line: Line
    }

    /// Where the configuration came from, for messages: a file, or `core.sshCommand`.
    public let source: String
    /// Its meaningful lines, in order.
    public let entries: [Entry]

    /// Parses `text` as ssh does: one keyword a line, its arguments after spaces or one `=`,
    /// double or single quotes around an argument with spaces, `#` starting a comment.
    /// Refuses, naming the line, what ssh refuses to read: unbalanced quotes, a keyword
    /// without argument.
    public init(parsing text: String, source: String) throws(SSHConfigError) {
        self.source = source
        var entries: [Entry] = []
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            // Named, not destructured (see ``IndexFile/parse(_:path:)``).
            guard let option = try Self.split(String(rawLine), at: "\(source) line \(number)") else { continue }
            let (keyword, arguments) = option
            switch keyword {
            case "host": entries.append(Entry(number: number, line: .host(arguments)))
            case "match": entries.append(Entry(number: number, line: .match))
            case "include": entries.append(Entry(number: number, line: .include(arguments)))
            default: entries.append(Entry(number: number, line: .option(keyword, arguments)))
            }
        }
        self.entries = entries
    }

    /// A configuration made of `entries` (such as options of an ssh command line).
    public init(entries: [Entry], source: String) {
        self.source = source
        self.entries = entries
    }

    /// Applies what holds for `host` (the name as given, before any `HostName`) to
    /// `settings`, keeping the values it already has (ssh keeps the first value obtained).
    /// `include` returns the configurations an `Include` argument names, in order; a
    /// configuration included holds only where the `Include` line does, and its `Host` and
    /// `Match` lines do not change the state of the file that includes it.
    public func apply(
        for host: String, to settings: inout SSHHost,
        include: (String) throws(SSHConfigError) -> [SSHConfig] = { _ in [] },
        depth: Int = 0
    ) throws(SSHConfigError) {
        guard depth <= 16 else {
            throw SSHConfigError("\(source): Include is nested more than 16 deep")
        }
        let name = host.lowercased()
        var active = true
        for entry in entries {
            let location = "\(source) line \(entry.number)"
            switch entry.line {
            case .host(let patterns):
                active = Self.matches(name, patterns)
            case .match:
                active = false
            case .include(let arguments):
                guard active else { continue }
                for argument in arguments {
                    for included in try include(argument) {
                        try included.apply(for: host, to: &settings, include: include, depth: depth + 1)
                    }
                }
            case .option(let keyword, let arguments):
                guard active else { continue }
                try settings.take(keyword, arguments, at: location)
            }
        }
    }

    /// Whether a `Host` line's patterns select `host` (lowercased, as ssh compares it): one
    /// pattern matches and no negated one does.
    static func matches(_ host: String, _ patterns: [String]) -> Bool {
        var matched = false
        for pattern in patterns {
            if pattern.hasPrefix("!") {
                if glob(Array(pattern.dropFirst().utf8), Array(host.utf8)) { return false }
            } else if glob(Array(pattern.utf8), Array(host.utf8)) {
                matched = true
            }
        }
        return matched
    }

    /// Whether `text` matches `pattern`, where `*` stands for any run of bytes and `?` for one.
    static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var (p, t) = (0, 0)
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if let last = star {
                // Let the last star take one more byte, and try again from there.
                p = last.pattern + 1
                t = last.text + 1
                star = (last.pattern, last.text + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    /// A line's keyword (lowercased) and arguments; nil for a blank line or a comment.
    static func split(_ line: String, at location: String) throws(SSHConfigError) -> (String, [String])? {
        var rest = Substring(line)
        rest = rest.drop(while: \.isSSHSpace)
        guard let first = rest.first, first != "#" else { return nil }
        let keyword = rest.prefix { !$0.isSSHSpace && $0 != "=" }
        rest = rest.dropFirst(keyword.count).drop(while: \.isSSHSpace)
        if rest.first == "=" { rest = rest.dropFirst().drop(while: \.isSSHSpace) }
        guard !keyword.isEmpty else {
            throw SSHConfigError("\(location): a line starts with \"=\" where a keyword belongs")
        }
        let arguments = try words(rest, at: location)
        guard !arguments.isEmpty else {
            throw SSHConfigError("\(location): no argument after \(keyword)")
        }
        return (keyword.lowercased(), arguments)
    }

    /// Splits arguments as ssh does (`argv_split`): spaces or tabs between words, `"` or `'`
    /// around a word with spaces, `\` before a quote, a backslash or a space taking it
    /// literally, and a word starting with `#` ending the line.
    static func words(_ text: Substring, at location: String) throws(SSHConfigError) -> [String] {
        var words: [String] = []
        var characters = Array(text)[...]
        while let first = characters.first {
            if first.isSSHSpace {
                characters = characters.dropFirst()
                continue
            }
            if first == "#" { break }
            var word = ""
            var quote: Character?
            while let character = characters.first {
                if character == "\\", characters.count > 1 {
                    let next = characters[characters.index(after: characters.startIndex)]
                    if next == "'" || next == "\"" || next == "\\" || (quote == nil && next == " ") {
                        word.append(next)
                        characters = characters.dropFirst(2)
                        continue
                    }
                    word.append(character)
                } else if quote == nil, character.isSSHSpace {
                    break
                } else if quote == nil, character == "\"" || character == "'" {
                    quote = character
                } else if let open = quote, character == open {
                    quote = nil
                } else {
                    word.append(character)
                }
                characters = characters.dropFirst()
            }
            if quote != nil {
                throw SSHConfigError("\(location): a quote is not closed")
            }
            words.append(word)
        }
        return words
    }
}

private extension Character {
    /// A space or a tab: what separates words in ssh's configuration.
    var isSSHSpace: Bool { self == " " || self == "\t" || self == "\r" || self == "\u{0C}" }
}
