#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A folder under the system's temporary folder, removed when the value goes away.
public final class TemporaryFolder: Sendable {
    public let path: String

    /// A new folder named after `label`, in `base` (the system's temporary folder when nil).
    public init(_ label: String = "cairn-test", in base: String? = nil) {
        let parent = base.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? NSTemporaryDirectory()
        var template = Array((parent + "\(label)-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
