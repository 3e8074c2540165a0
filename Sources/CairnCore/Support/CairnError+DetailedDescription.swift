import Git

extension CairnError {
    /// The error over several lines: its code, message, remedy and location, then its cause's
    /// the same way, and so on down the chain (a `GitError` with libgit2's function and
    /// where Cairn called it). What `CAIRN_LOG=debug` prints before the one-line message.
    ///
    /// ```
    /// CairnError: corrupt
    /// ├─ Message: cannot read users/u1/books/b1: corrupt store (object not found)
    /// ├─ Remedy: repair the store from its remote, keeping the documents not yet pushed
    /// ├─ Cause:
    /// │  └─ GitError: libgit2 error -3
    /// │     ├─ Message: object not found
    /// │     ├─ Function: git_odb_read
    /// │     └─ Location: Git/Repository+Objects.swift:40
    /// └─ Location: document(at:) (CairnCore/Store/Store+Reads.swift:86)
    /// ```
    public func detailedDescription() -> String {
        detailedLines().joined(separator: "\n")
    }

    private func detailedLines() -> [String] {
        var lines = ["CairnError: \(code)", "├─ Message: \(message)"]
        if let remedy {
            // The plain words, without the separator that joins them to the message.
            lines.append("├─ Remedy: \(remedy.plainWords)")
        }
        if let cause {
            lines.append("├─ Cause:")
            let causeLines = Self.lines(of: cause)
            lines.append("│  └─ " + causeLines[0])
            lines += causeLines.dropFirst().map { "│     " + $0 }
        }
        lines.append("└─ Location: \(location.function) (\(location.file):\(location.line))")
        return lines
    }

    /// The lines of any error in the chain: Cairn's and libgit2's in full, others as their
    /// type and description.
    private static func lines(of error: any Error) -> [String] {
        switch error {
        case let error as CairnError:
            return error.detailedLines()
        case let error as GitError:
            var lines = ["GitError: \(error.code)", "├─ Message: \(error.message)", "├─ Function: \(error.function)"]
            if let code = error.systemErrorCode { lines.append("├─ errno: \(code)") }
            lines.append("└─ Location: \(error.location.file):\(error.location.line)")
            return lines
        default:
            return ["\(type(of: error)): \(error)"]
        }
    }
}
