import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's Prometheus on a free port of 127.0.0.1 for a test, scraping one target every
/// second into a folder of its own, stopped by its PID. Needs prometheus
/// (scripts/install-deps.sh --tests installs it).
public final class PrometheusServer: @unchecked Sendable {
    public let port: Int
    private let process: ChildProcess
    private let folder: TemporaryFolder

    static let path = "/usr/bin/prometheus"

    /// Starts it scraping `target` (`127.0.0.1:PORT`, its `/metrics`) and waits (at most 30 s)
    /// until it answers.
    public init(scraping target: String) throws {
        let folder = TemporaryFolder("cairn-prometheus")
        let configuration = """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: cairn
                static_configs:
                  - targets: ["\(target)"]

            """
        try configuration.write(toFile: folder.path + "/prometheus.yml", atomically: false, encoding: .utf8)
        for tries in 1...5 {
            let port = try Loopback.freePort()
            let process = try Loopback.start(
                Self.path,
                [
                    "--config.file=" + folder.path + "/prometheus.yml", "--storage.tsdb.path=" + folder.path + "/data",
                    "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
                ], console: folder.path + "/console")
            let deadline = Date() + 30
            while process.isRunning, Date() < deadline,
                (try? runBounded("/usr/bin/curl", ["-sf", "--max-time", "2", "http://127.0.0.1:\(port)/-/ready"]).status) != 0
            {
                usleep(100_000)
            }
            if process.isRunning, Date() < deadline {
                (self.port, self.process, self.folder) = (port, process, folder)
                return
            }
            Loopback.terminate(process)
            if tries == 5 {
                let said = (try? String(contentsOfFile: folder.path + "/console", encoding: .utf8)) ?? ""
                throw GitServerStartError(description: "PrometheusServer: prometheus did not start: \(said)")
            }
        }
        fatalError("unreachable")
    }

    deinit {
        Loopback.terminate(process)
    }

    /// The value of the instant query `query` (PromQL) as Prometheus answers it now; nil while
    /// it has none.
    public func value(_ query: String) throws -> Double? {
        let answer = try runBounded(
            "/usr/bin/curl",
            [
                "-s", "--max-time", "5", "-G", "http://127.0.0.1:\(port)/api/v1/query",
                "--data-urlencode", "query=" + query,
            ]
        ).stdout
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
            let data = object["data"] as? [String: Any], let results = data["result"] as? [[String: Any]],
            let first = results.first, let pair = first["value"] as? [Any], pair.count == 2, let text = pair[1] as? String
        else { return nil }
        return Double(text)
    }

    /// Waits (at most `seconds`) until `query` has a value for which `holds` is true; the last
    /// value seen.
    public func wait(for query: String, seconds: Double = 30, until holds: (Double) -> Bool) throws -> Double? {
        let deadline = Date() + seconds
        var last: Double?
        while Date() < deadline {
            last = try value(query)
            if let last, holds(last) { return last }
            usleep(250_000)
        }
        return last
    }
}
