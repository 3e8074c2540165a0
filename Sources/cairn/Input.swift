import CairnCore
import CairnMerge
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Reading a command's input: a named file or stdin, never more than the limit allows.
enum Input {
    /// The bytes of `file` (stdin without one); more than `limit` is refused, with
    /// `beyondLimit` saying why (the limit of a document by default).
    static func read(_ file: String?, limit: Int, beyondLimit: String = "the limit of a document; split it into smaller documents") throws
        -> [UInt8]
    {
        let fd: Int32
        let name: String
        if let file {
            fd = open(file, O_RDONLY | O_CLOEXEC)
            if fd == -1 {
                throw CairnError(.notFound, "cannot read \(file): \(String(cString: strerror(errno)))")
            }
            name = file
        } else {
            if isatty(0) != 0 {
                throw CairnError(.invalidInput, "no document given: name a JSON file, or pipe the JSON on stdin")
            }
            fd = 0
            name = "stdin"
        }
        defer { if fd != 0 { close(fd) } }
        let bytes: [UInt8]
        switch Syscalls.readToEnd(fd, limit: limit) {
        case .success(let read): bytes = read
        case .failure(let error): throw CairnError(.io, "cannot read \(name): \(error)")
        }
        if bytes.count > limit {
            throw CairnError(.invalidInput, "\(name) is larger than \(limit) bytes, \(beyondLimit) — nothing was written")
        }
        return bytes
    }
}
