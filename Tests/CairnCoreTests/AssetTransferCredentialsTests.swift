import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The remote's password goes to its LFS endpoint and nowhere else: an LFS server may hand
/// out transfer URLs on another origin (object storage), which must never see it. Two
/// listeners on 127.0.0.1 in one Python process stand for the server: the batch endpoint,
/// which answers with a download URL on the other port, and that storage, each noting
/// whether a request brought an `Authorization` header. The endpoint answers a request
/// without the remote's password with 401 and a challenge, as a real one does.
@Suite(.historiesVerified) struct AssetTransferCredentialsTests {
    let folder = TemporaryFolder()

    /// The two listeners: `endpoint` and `storage` ports go to the file `ports`, each request
    /// to the file `log` as `<endpoint|storage> <path> <authorized|anonymous>`; the storage
    /// serves the file `object`; the endpoint takes only the `Authorization` header given as
    /// the second argument.
    static let server = """
        import http.server, json, sys, threading
        folder, expected = sys.argv[1], sys.argv[2]
        log = open(folder + "/log", "a", buffering=1)
        class Handler(http.server.BaseHTTPRequestHandler):
            def note(self):
                log.write("%s %s %s\\n" % (self.server.role, self.path, "authorized" if self.headers.get("Authorization") else "anonymous"))
            def do_POST(self):
                self.note()
                if self.headers.get("Authorization") != expected:
                    refusal = b'{"message":"Credentials needed"}'
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="lfs"')
                    self.send_header("Content-Length", str(len(refusal)))
                    self.end_headers()
                    self.wfile.write(refusal)
                    return
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

    /// The two listeners, started; their ports, and the folder of their files.
    final class Listeners {
        let process = ChildProcess()
        let folder: String
        let ports: [Int]

        init(in parent: TemporaryFolder, serving object: Data, password: String) throws {
            folder = parent.path + "/served"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try object.write(to: URL(fileURLWithPath: folder + "/object"))
            let expected = "Basic " + Data("u1:\(password)".utf8).base64EncodedString()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-I", "-c", AssetTransferCredentialsTests.server, folder, expected]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date() + 10
            var ports: [Int] = []
            while ports.count < 2, Date() < deadline {
                ports = ((try? String(contentsOfFile: folder + "/ports", encoding: .utf8)) ?? "").split(separator: " ").compactMap {
                    Int($0)
                }
                usleep(20_000)
            }
            self.ports = ports
            if ports.count < 2 { Loopback.terminate(process) }
            try #require(ports.count == 2, "the listeners did not start")
        }

        deinit { Loopback.terminate(process) }

        var log: String { (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "" }
    }

    let set = SchemaSetFiles(
        name: "field-notes",
        files: [
            "note.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/notes/{id}","assets":{"sketch":{}}},"type":"object","properties":{"sketch":{"type":["object","null"]}}}"#
                    .utf8)
        ])
    let sketch = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    /// A device whose store, with the remote's password `password`, holds a note with the
    /// sketch attached, the device's copy of it gone: the next read downloads it.
    func deviceMissingItsCopy(password: String, of listeners: Listeners) throws -> (
        store: Store, note: DocumentPath, sketch: AssetReference
    ) {
        try sketch.write(to: URL(fileURLWithPath: folder.path + "/sketch.png"))
        let home = Home(root: folder.path + "/home", configuration: Configuration(username: "u1", password: password))
        let store = try home.createStore("u1", schemaSet: set)
        try store.setRemote(RemoteURL("http://127.0.0.1:\(listeners.ports[0])/u1.git"))
        let note = try DocumentPath("users/u1/notes/n1")
        let reference = try store.put(
            .object([:]), at: note, attaching: [AssetAttachment(field: "sketch", file: folder.path + "/sketch.png")])[0]
        try FileManager.default.removeItem(atPath: try store.assetFile("sketch", of: note))
        return (store, note, reference)
    }

    @Test(.runningTime(atMost: .seconds(120)))
    func thePasswordGoesToTheEndpointAndNeverToATransferURLElsewhere() throws {
        let listeners = try Listeners(in: folder, serving: sketch, password: "p@ss-1")
        let (store, note, reference) = try deviceMissingItsCopy(password: "p@ss-1", of: listeners)
        let read = try store.assetFile("sketch", of: note)
        #expect(FileManager.default.contents(atPath: read) == sketch)
        #expect(listeners.log == "endpoint /u1.git/info/lfs/objects/batch authorized\nstorage /objects/\(reference.oid) anonymous\n")
    }

    /// A wrong password is refused with a challenge: one line about the credentials, at once,
    /// where waiting on the challenge would hang the read (or a sync) for good.
    @Test(.runningTime(atMost: .seconds(120)))
    func aWrongPasswordIsOneLineAboutTheCredentialsAndNeverAHang() throws {
        let listeners = try Listeners(in: folder, serving: sketch, password: "p@ss-1")
        let (store, note, _) = try deviceMissingItsCopy(password: "wrong", of: listeners)
        let started = Date()
        let error = #expect(throws: CairnError.self) { try store.assetFile("sketch", of: note) }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(error?.code == .authentication, "\(String(describing: error))")
        #expect(
            error?.message.contains("HTTP 401") == true && error?.message.contains("user name and password") == true,
            "\(String(describing: error))")
        #expect(listeners.log == "endpoint /u1.git/info/lfs/objects/batch authorized\n")
    }
}
