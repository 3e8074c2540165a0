/// The files written since the last checkpoint: `.git/cairn/pending`, one path a line.
///
/// A write records its path here before it touches the file, so a checkpoint commits
/// exactly what was written — at a cost that follows the number of written documents, not
/// the size of the store — and a process killed between the two leaves at worst a path whose
/// file did not change, which the checkpoint finds unchanged. Each record starts with a
/// newline as well as ending with one, so a record cut short stays a line of its own
/// (whatever comes after it) and the append need not read the file's end first; a last
/// line without its newline is ignored, and so are empty lines.
struct PendingJournal {
    let path: String

    /// Records paths (relative to the working tree).
    func append(_ paths: [String]) throws(CairnError) {
        guard !paths.isEmpty else { return }
        let text = "\n" + paths.joined(separator: "\n") + "\n"
        try FileSystem.append(Array(text.utf8), to: path)
    }

    /// The recorded paths, each once, in the order first recorded.
    func paths() throws(CairnError) -> [String] {
        guard let bytes = try FileSystem.read(path), !bytes.isEmpty else { return [] }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        lines.removeLast()  // empty after a final newline, or a line cut short
        var seen = Set<String>()
        var result: [String] = []
        for line in lines where !line.isEmpty {
            let text = String(decoding: line, as: UTF8.self)
            if seen.insert(text).inserted { result.append(text) }
        }
        return result
    }

    /// Forgets every recorded path, after a checkpoint committed them.
    func clear() throws(CairnError) {
        try FileSystem.removeFile(path)
    }
}
