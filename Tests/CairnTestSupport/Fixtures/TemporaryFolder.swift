import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A folder under the system's temporary folder, removed when the value goes away — or, made
/// while a test whose folders are kept runs (``TestFolders``), when that test is over.
public final class TemporaryFolder: Sendable {
    public let path: String
    /// What keeps the folder until its test is over, if anything does.
    private let keeper: TestFolders?

    /// A new folder named after `label`, in `base` (the system's temporary folder when nil).
    /// `keptForTheTest: false` removes it when the value goes away even while a test keeps its
    /// folders: for scratch files that hold no repository (a process's output).
    public init(_ label: String = "cairn-test", in base: String? = nil, keptForTheTest: Bool = true) {
        let parent = base.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? NSTemporaryDirectory()
        var template = Array((parent + "\(label)-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        keeper = keptForTheTest ? TestFolders.current : nil
        keeper?.keep(path)
    }

    deinit {
        if keeper == nil { try? FileManager.default.removeItem(atPath: path) }
    }
}
