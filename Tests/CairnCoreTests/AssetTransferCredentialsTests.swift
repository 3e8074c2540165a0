import CairnCore
import CairnMerge
import CairnTestSupport
import Foundation
import Testing

/// The remote's password goes to its LFS endpoint and nowhere else: an LFS server may hand
/// out transfer URLs on another origin (object storage), which must never see it. Two
/// listeners on 127.0.0.1 in one Python process stand for the server: the batch endpoint,
/// which answers with a download URL on the other port, and that storage, each noting
/// whether a request brought an `Authorization` header.
@Suite struct AssetTransferCredentialsTests {
    let folder = TemporaryFolder()

    /// The two listeners: `endpoint` and `storage` ports go to the file `ports`, each request
    /// to the file `log` as `<endpoint|storage> <path> <authorized|anonymous>`; the storage
    /// serves the file `object`.
    static let server = """
        import http.server, json, sys, threading
        folder = sys.argv[1]
        log = open(folder + "/log", "a", buffering=1)
        class Handler(http.server.BaseHTTPRequestHandler):
            def note(self):
                log.write("%s %s %s\\n" % (self.server.role, self.path, "authorized" if self.headers.get("Authorization") else "anonymous"))
            def do_POST(self):
                self.note()
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                objects = [{"oid": o["oid"], "size": o["size"], "actions": {"download": {"href": "http://127.0.0.1:%d/objects/%s" % (storage.server_port, o["oid"])}}} for o in body["objects"]]
                answer = json.dumps({"transfer": "basic", "objects": objects}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/vnd.git-lfs+json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            def do_GET(self):
                self.note()
                data = open(folder + "/object", "rb").read()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def log_message(self, *arguments):
                pass
        endpoint = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        endpoint.role = "endpoint"
        storage = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        storage.role = "storage"
        threading.Thread(target=storage.serve_forever, daemon=True).start()
        open(folder + "/ports", "w").write("%d %d" % (endpoint.server_port, storage.server_port))
        endpoint.serve_forever()
        """

    @Test(.timeLimit(.minutes(2)))
    func thePasswordGoesToTheEndpointAndNeverToATransferURLElsewhere() throws {
        let set = SchemaSetFiles(name: "field-notes", files: [
            "note.schema.json": Array(#"{"x-cairn":{"path":"users/{uid}/notes/{id}","assets":{"sketch":{}}},"type":"object","properties":{"sketch":{"type":["object","null"]}}}"#.utf8),
        ])
        let served = folder.path + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let sketch = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try sketch.write(to: URL(fileURLWithPath: served + "/object"))
        try sketch.write(to: URL(fileURLWithPath: folder.path + "/sketch.png"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-I", "-c", Self.server, served]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { Loopback.terminate(process) }
        let deadline = Date() + 10
        var ports: [Int] = []
        while ports.count < 2, Date() < deadline {
            ports = ((try? String(contentsOfFile: served + "/ports", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int($0) }
            usleep(20_000)
        }
        try #require(ports.count == 2, "the listeners did not start")

        let home = Home(root: folder.path + "/home", configuration: Configuration(username: "u1", password: "p@ss-1"))
        let store = try home.createStore("u1", schemaSet: set)
        try store.setRemote(RemoteURL("http://127.0.0.1:\(ports[0])/u1.git"))
        let note = try DocumentPath("users/u1/notes/n1")
        let reference = try store.put(.object([:]), at: note, attaching: [AssetAttachment(field: "sketch", file: folder.path + "/sketch.png")])[0]
        // This device loses its copy: the next read downloads it.
        let copy = try store.assetFile("sketch", of: note)
        try FileManager.default.removeItem(atPath: copy)
        let read = try store.assetFile("sketch", of: note)
        #expect(FileManager.default.contents(atPath: read) == sketch)

        let log = try String(contentsOfFile: served + "/log", encoding: .utf8)
        #expect(log == "endpoint /u1.git/info/lfs/objects/batch authorized\nstorage /objects/\(reference.oid) anonymous\n")
    }
}
