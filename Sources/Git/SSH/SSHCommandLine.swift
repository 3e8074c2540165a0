/// The ssh command git would run for a remote (`GIT_SSH_COMMAND`, or `core.sshCommand` in
/// git's configuration), read for the options that choose where to connect and which keys to
/// offer: `-i FILE` (an identity file), `-o OPTION` (a configuration line), `-F FILE` (another
/// configuration file instead of `~/.ssh/config`), `-p PORT` and `-l USER`.
///
/// Cairn speaks SSH through libssh2 and runs no program, so a command it cannot honour — not
/// ssh, shell syntax, an option that changes the connection in other ways (`-J`, `-L`, …) —
/// is refused in one line rather than half obeyed. Flags that change nothing of that
/// (`-v`, `-q`, `-T`, `-4`, …) are read and left alone.
public struct SSHCommandLine: Sendable, Hashable {
    /// The options given, as configuration lines that hold for every host and come before the
    /// configuration files (ssh takes the command line first, so its values win).
    public let options: SSHConfig
    /// `-F`: the configuration file to read instead of `~/.ssh/config` (and then not
    /// `/etc/ssh/ssh_config` either, as ssh does).
    public let configFile: String?

    /// Flags without an argument that leave the destination and the keys alone.
    static let harmlessFlags: Set<Character> = ["4", "6", "A", "a", "C", "g", "K", "k", "N", "n", "q", "T", "t", "v", "X", "x", "Y", "y"]

    /// Parses `command`; `source` names where it was found (`core.sshCommand`,
    /// `GIT_SSH_COMMAND`) in errors.
    public init(parsing command: String, source: String) throws(SSHConfigError) {
        let words = try Self.shellWords(command, source: source)
        guard let program = words.first else {
            throw SSHConfigError("\(source) is empty: give an ssh command, such as ssh -i ~/.ssh/id_ed25519")
        }
        guard program.split(separator: "/").last == "ssh" else {
            throw SSHConfigError(
                "\(source) runs \(program): Cairn speaks SSH itself and takes only ssh's -i, -o, -F, -p and -l from it; write the key choice as ssh options or in ~/.ssh/config"
            )
        }
        var entries: [SSHConfig.Entry] = []
        var configFile: String?
        var rest = words.dropFirst()
        while let word = rest.first {
            rest = rest.dropFirst()
            guard word.hasPrefix("-"), word.count > 1 else {
                throw SSHConfigError(
                    "\(source): \(String(reflecting: word)) is not an ssh option (git gives the host and the command itself)")
            }
            var letters = word.dropFirst()
            while let letter = letters.first {
                letters = letters.dropFirst()
                if Self.harmlessFlags.contains(letter) { continue }
                guard "ioFpl".contains(letter) else {
                    throw SSHConfigError(
                        "\(source): ssh's -\(letter) is not something Cairn does (it speaks SSH through libssh2 and takes only -i, -o, -F, -p and -l)"
                    )
                }
                let value: String
                if !letters.isEmpty {
                    value = String(letters)
                    letters = ""
                } else if let next = rest.first {
                    value = next
                    rest = rest.dropFirst()
                } else {
                    throw SSHConfigError("\(source): -\(letter) needs a value")
                }
                let number = entries.count + 1
                switch letter {
                case "i": entries.append(.init(number: number, line: .option("identityfile", [value])))
                case "p": entries.append(.init(number: number, line: .option("port", [value])))
                case "l": entries.append(.init(number: number, line: .option("user", [value])))
                case "F": configFile = value
                default:
                    // Named, not destructured (see ``IndexFile/parse(_:path:)``).
                    guard let option = try SSHConfig.split(value, at: "\(source) -o \(String(reflecting: value))") else {
                        throw SSHConfigError("\(source): -o needs an option, such as -o IdentitiesOnly=yes")
                    }
                    let (keyword, arguments) = option
                    guard !["host", "match", "include"].contains(keyword) else {
                        throw SSHConfigError("\(source): -o \(value) is not an option ssh takes on its command line")
                    }
                    entries.append(.init(number: number, line: .option(keyword, arguments)))
                }
            }
        }
        self.options = SSHConfig(entries: entries, source: source)
        self.configFile = configFile
    }

    /// Splits a command as a POSIX shell splits plain words: `'…'` taken literally, `"…"`
    /// with `\` before `"`, `\`, `$` or `` ` ``, and `\` outside quotes taking the next
    /// character. Shell syntax (variables, pipes, redirections, lists) is refused.
    static func shellWords(_ command: String, source: String) throws(SSHConfigError) -> [String] {
        var words: [String] = []
        var word: String?
        var characters = Array(command)[...]
        while let character = characters.popFirst() {
            switch character {
            case " ", "\t", "\n":
                if let finished = word { words.append(finished) }
                word = nil
            case "'":
                guard let end = characters.firstIndex(of: "'") else {
                    throw SSHConfigError("\(source): a quote is not closed")
                }
                word = (word ?? "") + String(characters[..<end])
                characters = characters[characters.index(after: end)...]
            case "\"":
                var text = ""
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\", let escaped = characters.first, "\"\\$`".contains(escaped) {
                        text.append(escaped)
                        characters = characters.dropFirst()
                    } else if next == "$" || next == "`" {
                        throw SSHConfigError(
                            "\(source): Cairn runs no shell, so it cannot expand \(next) in \(String(reflecting: command))")
                    } else {
                        text.append(next)
                    }
                }
                guard closed else { throw SSHConfigError("\(source): a quote is not closed") }
                word = (word ?? "") + text
            case "\\":
                if let next = characters.popFirst() { word = (word ?? "") + String(next) }
            case "$", "`", "|", "&", ";", "<", ">", "(", ")", "*", "?", "[":
                throw SSHConfigError(
                    "\(source): Cairn runs no shell, so it cannot take \(character) in \(String(reflecting: command)); give ssh and its options only"
                )
            default:
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }
}
