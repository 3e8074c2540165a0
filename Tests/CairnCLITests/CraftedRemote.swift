import CairnTestSupport
import Foundation

/// A bare repository whose branch `main` gets commits made with git's plumbing: trees written
/// byte by byte (`git hash-object -t tree --literally`), so they may hold names, modes and
/// links that git's porcelain and fsck would refuse — what a hostile remote could send.
struct CraftedRemote {
    let folder: String

    /// Creates the empty bare repository.
    func create() throws {
        let result = try runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", folder])
        guard result.status == 0 else { throw Failure(message: result.stderr) }
    }

    struct Failure: Error {
        var message: String
    }

    @discardableResult
    func git(_ arguments: [String], input: String? = nil) throws -> String {
        let result = try runProcess(
            "/usr/bin/git",
            ["-C", folder, "-c", "user.name=Intruder", "-c", "user.email=x@example.com"]
                + arguments, input: input)
        guard result.status == 0 else { throw Failure(message: "git \(arguments): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The commit `main` names.
    func head() throws -> String { try git(["rev-parse", "main"]) }

    /// Writes a blob and returns its id.
    func blob(_ text: String) throws -> String {
        try git(["hash-object", "-w", "--stdin"], input: text)
    }

    /// Commits, on top of `main`, its tree with the entry at `names` set to `mode` and `id`,
    /// moves `main` there and returns the commit.
    func commit(setting names: [String], mode: String, id: String) throws -> String {
        let parent = try head()
        let tree = try write(tree: try git(["rev-parse", parent + "^{tree}"]), setting: names, mode: mode, id: id)
        let commit = try git(["commit-tree", tree, "-p", parent, "-m", "crafted"])
        try git(["update-ref", "refs/heads/main", commit])
        return commit
    }

    /// Moves `main` back to `commit`.
    func reset(to commit: String) throws {
        try git(["update-ref", "refs/heads/main", commit])
    }

    /// The entries of a tree: mode, name and id.
    func entries(of tree: String) throws -> [(mode: String, name: String, id: String)] {
        try git(["ls-tree", "-z", tree]).split(separator: "\0").map { line in
            let (meta, name) = (line.prefix { $0 != "\t" }, line.drop { $0 != "\t" }.dropFirst())
            let fields = meta.split(separator: " ")
            return (String(fields[0]), String(name), String(fields[2]))
        }
    }

    /// Writes `tree` (nil: empty) with the entry at `names` set, the trees above it
    /// rewritten, and returns the new tree's id.
    func write(tree: String?, setting names: [String], mode: String, id: String) throws -> String {
        var entries = try tree.map { try self.entries(of: $0) } ?? []
        let name = names[0]
        let existing = entries.first { $0.name == name && $0.mode == "040000" }?.id
        entries.removeAll { $0.name == name }
        if names.count == 1 {
            entries.append((mode, name, id))
        } else {
            entries.append(("40000", name, try write(tree: existing, setting: Array(names.dropFirst()), mode: mode, id: id)))
        }
        // git's order: by name, a folder's name as if it ended in '/'.
        func key(_ entry: (mode: String, name: String, id: String)) -> [UInt8] {
            Array(entry.name.utf8) + (entry.mode.hasSuffix("40000") ? [UInt8(ascii: "/")] : [])
        }
        entries.sort { key($0).lexicographicallyPrecedes(key($1)) }
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += Array((entry.mode.hasSuffix("40000") ? "40000" : entry.mode).utf8) + [0x20] + Array(entry.name.utf8) + [0]
            var hex = entry.id[...]
            while !hex.isEmpty {
                bytes.append(UInt8(hex.prefix(2), radix: 16)!)
                hex = hex.dropFirst(2)
            }
        }
        let file = folder + "-tree-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try git(["hash-object", "-t", "tree", "-w", "--literally", file])
    }
}
