import Foundation

/// Debian's chromium, headless, as a person's browser would load a page: scripts, styles and
/// SVG as a real engine runs them, the page's DOM after it loaded, and a screenshot. Each run
/// has a profile folder of its own and is killed by its PID past its time limit.
public struct HeadlessBrowser: Sendable {
    public static let executable = "/usr/bin/chromium"

    /// Why the browser could not be used.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(
                description: "\(Self.executable) is not installed: apt-get install chromium (scripts/install-deps.sh --tests does)")
        }
    }

    /// The page's DOM as serialized after it loaded.
    public func dom(of url: String) throws -> String {
        let result = try run(["--dump-dom", url])
        guard result.status == 0, result.stdout.contains("<html") else {
            throw Failure(description: "chromium could not load \(url) (status \(result.status)): \(result.stderr.suffix(600))")
        }
        return result.stdout
    }

    /// A PNG of the page at `width` × `height` CSS pixels, written to `file`.
    public func screenshot(of url: String, to file: String, width: Int = 1280, height: Int = 1000) throws {
        try? FileManager.default.removeItem(atPath: file)
        let result = try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(file)", url])
        guard result.status == 0, FileManager.default.fileExists(atPath: file) else {
            throw Failure(description: "chromium took no screenshot of \(url) (status \(result.status)): \(result.stderr.suffix(600))")
        }
    }

    private func run(_ arguments: [String]) throws -> ProcessResult {
        let profile = TemporaryFolder("cairn-chromium")
        // As root (CI) chromium runs only without its sandbox; there is no GPU here either.
        return try withExtendedLifetime(profile) {
            try runBounded(
                Self.executable,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                    "--user-data-dir=\(profile.path)",
                ] + arguments, limit: 60)
        }
    }
}
