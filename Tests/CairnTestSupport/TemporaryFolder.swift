#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A folder under the system's temporary folder, removed when the value goes away.
public final class TemporaryFolder: Sendable {
    public let path: String

    public init(_ label: String = "cairn-test") {
        var template = Array((NSTemporaryDirectory() + "\(label)-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
