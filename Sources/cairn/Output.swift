import CairnCore
import CairnSystem

#if canImport(Glibc)
import Glibc
#endif

/// Writing to stdout and stderr: `print` for lines, these for raw bytes and error lines.
enum Output {
    /// Writes bytes to stdout as they are (after anything `print` buffered).
    static func write(_ bytes: [UInt8]) {
        fflush(nil)
        writeAll(bytes, to: 1)
    }

    /// Writes a line to stderr.
    static func error(_ text: String) {
        fflush(nil)
        writeAll(Array(text.utf8), to: 2)
    }

    /// `text` padded with spaces to `width` characters, for columns (on the left with `right`).
    static func pad(_ text: String, to width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text }
        let spaces = String(repeating: " ", count: width - text.count)
        return right ? spaces + text : text + spaces
    }

    /// Writes all of `bytes`, retrying interrupted writes as the library does; a failure
    /// (a closed pipe) drops the rest, since there is nowhere left to say so.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        _ = bytes.withUnsafeBytes { Syscalls.writeAll(descriptor, from: $0) }
    }
}
