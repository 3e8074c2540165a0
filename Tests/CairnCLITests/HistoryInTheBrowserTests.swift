import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// "What did the last merge decide?", read where people would rather look: `cairn web` serves
/// a store's history on 127.0.0.1, and a real browser (Debian's chromium, headless) loads its
/// pages: the timeline with a lane per device, the merge's decision, a document's plots. A
/// screenshot of the merge's page is written to `.build/screenshots/` in every test run.
@Suite(.serialized, .historiesVerified) struct HistoryInTheBrowserTests {
    static let book = HistoryBlameTests.book
    static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/screenshots").path

    /// `cairn web --port 0` on a device's home, running until stopped, and the address it
    /// printed when it began to listen.
    final class Served {
        let process: ChildProcess
        let base: String
        private let output: TemporaryFolder

        init(_ devices: Devices, _ device: String) throws {
            output = TemporaryFolder("cairn-web")
            let file = output.path + "/stdout"
            try Data().write(to: URL(fileURLWithPath: file))
            process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: CLI.executable)
            process.arguments = ["--home", devices.home(device), "--user", "u1", "web", "--port", "0"]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            var said = ""
            let deadline = Date() + 30
            while Date() < deadline, process.isRunning, !said.contains("\n") {
                usleep(20_000)
                said = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            }
            guard let range = said.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
                process.send(SIGKILL)
                process.waitUntilExit()
                throw HeadlessBrowser.Failure(description: "cairn web printed no address in 30 s: \(said)")
            }
            base = String(said[range])
            #expect(said.hasSuffix("/stores/u1 (Ctrl-C stops)\n"), "\(said)")
        }

        /// Stops it as Ctrl-C would, and waits (30 s at most) for it to end.
        func stop() -> Int32 {
            process.send(SIGINT)
            let deadline = Date() + 30
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { process.send(SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// `curl` for what a browser does not show: status and headers.
        func curl(_ path: String, host: String? = nil) throws -> ProcessResult {
            try runBounded("/usr/bin/curl", ["-s", "-i", "--max-time", "20"] + (host.map { ["-H", "Host: \($0)"] } ?? []) + [base + path])
        }
    }

    /// The phone and the tablet, named, that both changed s1 of a book offline; the tablet
    /// merged, keeping the phone's later mark (lww by updatedAt), and returns the merge's id.
    static func aMergeThatDecided() throws -> (Devices, merge: String) {
        let devices = try HistoryBlameTests.twoNamedDevices()
        let phone = ["CAIRN_DEVICE_NAME": "phone"]
        let path = Self.book
        func book(_ sections: String) -> String { HistoryBlameTests.book(sections) }
        #expect(
            try devices.on("phone", "put", path, input: book(#""s1":{"completed":true,"updatedAt":1730000000000}"#), environment: phone)
                .status == 0)
        try devices.sync("phone", environment: phone)
        try devices.clone("tablet")
        _ = try devices.git("tablet", "config", "cairn.deviceName", "tablet")
        #expect(
            try devices.on(
                "phone", "put", path,
                input: book(#""s1":{"completed":true,"updatedAt":1730300000000},"s2":{"completed":true,"updatedAt":1730100000000}"#),
                environment: phone
            ).status == 0)
        try devices.put("tablet", path, book(#""s1":{"completed":false,"updatedAt":1730250000000}"#))
        try devices.sync("phone", environment: phone)
        try devices.sync("tablet")
        return (devices, try devices.git("tablet", "rev-parse", "HEAD"))
    }

    @Test func aBrowserShowsTheMergesDecisionTheDevicesAndThePlotsAndAScreenshotIsTaken() throws {
        let browser = try HeadlessBrowser()
        let (devices, merge) = try Self.aMergeThatDecided()
        let head = try devices.git("tablet", "rev-parse", "HEAD")
        let gitFolder = try Self.files(under: devices.store("tablet") + "/.git")
        let served = try Served(devices, "tablet")
        defer { _ = served.stop() }

        // The store's page: a lane per device, the merge a diamond in the tablet's lane.
        let store = try browser.dom(of: served.base + "/stores/u1")
        #expect(store.contains(">phone</text>") && store.contains(">tablet</text>"), "lanes: \(store.prefix(3000))")
        #expect(store.contains("class=\"merge\""), "a merge is drawn")
        #expect(store.contains("/stores/u1/checkpoints/\(merge)"), "the merge links to its page")
        #expect(store.contains("/stores/u1/documents/users/u1/books/b1"), "the book links to its page")

        // The merge's page: its decision about s1, as the policy made it.
        let page = served.base + "/stores/u1/checkpoints/\(merge)"
        let dom = try browser.dom(of: page)
        let row = try #require(Self.row(containing: "<code>/sections/s1</code>", in: dom), "a decision row for s1: \(dom)")
        #expect(row.contains("lww(updatedAt)"), "\(row)")
        #expect(
            row.contains("class=\"kept\"><code>{ \"completed\": true, \"updatedAt\": 1730300000000 }</code>"),
            "the phone's mark kept: \(row)")
        #expect(
            row.contains("class=\"replaced\"><code>{ \"completed\": false, \"updatedAt\": 1730250000000 }</code>"),
            "the tablet's replaced: \(row)")
        let device = try #require(Self.row(containing: "<th>device</th>", in: dom), "\(dom)")
        #expect(device.contains("<td>tablet <span class=\"muted\">("), "the device that merged: \(device)")

        // The book's page: the sections done over its checkpoints, drawn as a plot.
        let document = try browser.dom(of: served.base + "/stores/u1/documents/users/u1/books/b1")
        #expect(document.contains("<figcaption>true in /sections/*/completed</figcaption>"), "\(document.prefix(4000))")
        #expect(document.contains("<svg"), "plots are inline SVG")

        // Nothing is fetched from elsewhere: no script, no link, no image, no external address.
        for html in [store, dom, document] {
            #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("<img") && !html.contains("src="))
            #expect(!html.contains("href=\"http"), "only the server's own pages are linked")
        }
        let headers = try served.curl("/stores/u1")
        #expect(headers.stdout.hasPrefix("HTTP/1.1 200"), "\(headers.stdout.prefix(300))")
        #expect(headers.stdout.contains("Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; img-src data:"))

        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let shot = Self.screenshots + "/history-merge.png"
        try browser.screenshot(of: page, to: shot, height: 1100)
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
        #expect(png.count > 20_000, "a page, not a blank: \(png.count) bytes")
        print("screenshot of the merge's page: \(shot) (\(png.count) bytes)")

        // Stopped as Ctrl-C stops it, having written nothing.
        #expect(served.stop() == 0)
        #expect(try Self.files(under: devices.store("tablet") + "/.git") == gitFolder, "nothing in the git folder changed")
        #expect(try devices.git("tablet", "rev-parse", "HEAD") == head)
        #expect(try devices.git("tablet", "status", "--porcelain") == "")
    }

    /// Every file under `folder` with its size and modification time.
    static func files(under folder: String) throws -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            found[name] = "\(attributes[.size] ?? "") \(attributes[.modificationDate] ?? "")"
        }
        return found
    }

    /// A merge that met a stamp from the future says so beside its decision.
    @Test func aStampFromTheFutureIsNotedBesideTheDecision() throws {
        let (devices, set) = try HistoryAuditTests.aStampFromTheFutureMerged()
        defer { withExtendedLifetime(set) {} }
        let merge = try devices.git("tablet", "rev-parse", "HEAD")
        let served = try Served(devices, "tablet")
        defer { _ = served.stop() }
        let page = try served.curl("/stores/u1/checkpoints/\(merge)").stdout
        let row = try #require(Self.row(containing: "users/u1/notes/n1</a>", in: page), "\(page)")
        #expect(row.contains("&quot;text&quot;: &quot;from the future&quot;"), "\(row)")
        let note = try #require(
            row.range(of: #"<td class="note">[^<]+</td>"#, options: .regularExpression).map { String(row[$0]) }, "\(row)")
        #expect(note.contains("ahead of the merging device&#39;s clock"), "\(note)")
    }

    /// "Attempts and scores": a collection's page plots each attempt's score, in the order the
    /// attempts came, and how many there were after each checkpoint.
    @Test func aCollectionPlotsEachAttemptsScoreInTheOrderTheyCame() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        for (index, score) in [55, 72, 91].enumerated() {
            try devices.put(
                "phone", "users/u1/examAttempts/a\(index + 1)",
                #"{"attemptId":"a\#(index + 1)","examId":"practice-1","status":"\#(score >= 75 ? "passed" : "failed")","score":\#(score)}"#)
            #expect(try devices.on("phone", "checkpoint").status == 0)
        }
        let served = try Served(devices, "phone")
        defer { _ = served.stop() }
        let page = try served.curl("/stores/u1/collections/users/u1/examAttempts").stdout
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(300))")
        let figure = try #require(
            page.range(of: #"<figcaption>/score</figcaption>.*?</svg>"#, options: .regularExpression).map { String(page[$0]) }, "\(page)")
        let tips = figure.split(separator: "<title>").dropFirst(2).map { $0.prefix { $0 != "<" } }
        #expect(tips == ["a1: 55", "a2: 72", "a3: 91"], "one point per attempt, in order: \(tips)")
        let count = try #require(
            page.range(of: #"<figcaption>documents in users/u1/examAttempts</figcaption>.*?</svg>"#, options: .regularExpression).map {
                String(page[$0])
            })
        #expect(count.hasSuffix("</circle></svg>") && count.components(separatedBy: "<circle").count == 4, "three checkpoints: \(count)")
        #expect(page.contains("3 documents at the last checkpoint."))
    }

    /// Two devices each add an attempt offline and sync: the count after the merge is the
    /// three documents the collection holds, not the merge's arrivals counted again; a huge
    /// score is plotted, not a crash; the user's own page lists only its own changes, not
    /// those of the documents below it.
    @Test func mergesCountOnceHugeNumbersPlotAndADocumentsPageKeepsToItself() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        func attempt(_ id: String, _ seconds: String) -> String {
            #"{"attemptId":"\#(id)","examId":"practice-1","status":"failed","score":50,"timeSpentInSeconds":\#(seconds)}"#
        }
        try devices.put("phone", "users/u1/examAttempts/a1", attempt("a1", "10"))
        try devices.put("phone", "users/u1", #"{"schemaVersion":1}"#)
        try devices.sync("phone")
        try devices.clone("tablet")
        try devices.put("phone", "users/u1/examAttempts/a2", attempt("a2", "9000000000000000000"))
        try devices.put("tablet", "users/u1/examAttempts/a3", attempt("a3", "30"))
        try devices.sync("phone")
        try devices.sync("tablet")
        let served = try Served(devices, "tablet")
        defer { _ = served.stop() }
        let page = try served.curl("/stores/u1/collections/users/u1/examAttempts").stdout
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(600))")
        let count = try #require(
            page.range(of: #"<figcaption>documents in users/u1/examAttempts</figcaption>.*?</svg>"#, options: .regularExpression).map {
                String(page[$0])
            }, "\(page)")
        let values = count.split(separator: "<title>").dropFirst(2).compactMap { $0.prefix { $0 != "<" }.split(separator: " ").last }
        #expect(values == ["1", "2", "3"], "1, then the tablet's own, then the merge bringing the phone's: \(values)")
        #expect(page.contains("<figcaption>/timeSpentInSeconds</figcaption>") && page.contains("a2: 9e+18"), "the huge number plotted")
        let user = try served.curl("/stores/u1/documents/users/u1").stdout
        #expect(user.hasPrefix("HTTP/1.1 200"))
        #expect(!user.contains("/timeSpentInSeconds"), "the attempts' changes are theirs, not the user document's")
    }

    /// An encrypted store is shown opened with its key, as every command reads it; without
    /// the key, its pages say so and show nothing of it.
    @Test func anEncryptedStoreIsShownWithItsKeyAndNothingWithout() throws {
        let devices = try Devices(schema: "life-in-uk")
        let key = devices.home("phone") + ".key"
        #expect(try devices.on("phone", "init", "u1", "--schema", "life-in-uk", "--encrypted", "--key-file", key, user: nil).status == 0)
        try devices.put("phone", "users/u1/examAttempts/a1", #"{"attemptId":"a1","examId":"secret-exam","status":"passed","score":88}"#)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        let served = try Served(devices, "phone")
        defer { _ = served.stop() }
        let page = try served.curl("/stores/u1/documents/users/u1/examAttempts/a1").stdout
        #expect(page.hasPrefix("HTTP/1.1 200") && page.contains("&quot;secret-exam&quot;"), "\(page.prefix(800))")
        try FileManager.default.moveItem(atPath: key, toPath: key + ".away")
        let refused = try served.curl("/stores/u1/documents/users/u1/examAttempts/a1").stdout
        #expect(refused.hasPrefix("HTTP/1.1 404") && refused.contains("key file \(key) does not exist"), "\(refused.prefix(800))")
        #expect(!refused.contains("secret-exam"))
    }

    @Test func itListensOnLoopbackOnlyAndAnswersOnlyToItsOwnName() throws {
        let (devices, _) = try Self.aMergeThatDecided()
        let served = try Served(devices, "tablet")
        defer { _ = served.stop() }
        let port = try #require(Int(served.base.split(separator: ":").last ?? ""))
        // Every socket listening on the port is bound to 127.0.0.1 (0100007F in /proc).
        let hexPort = ":" + String(format: "%04X", port)
        let sockets: [[Substring]] = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: " ") }
        let listening = sockets.filter { $0.count > 3 && $0[3] == "0A" && $0[1].hasSuffix(hexPort) }
        #expect(!listening.isEmpty && listening.allSatisfy { $0[1].hasPrefix("0100007F:") }, "\(listening)")
        #expect(
            try String(contentsOfFile: "/proc/net/tcp6", encoding: .utf8).contains(
                String(format: ":%04X 00000000000000000000000000000000:0000 0A", port)) == false)
        // A page asked for by another name (a rebinding attack's) is refused.
        #expect(try served.curl("/stores/u1", host: "attacker.example:\(port)").stdout.hasPrefix("HTTP/1.1 421"))
        #expect(try served.curl("/stores/u1", host: "localhost:\(port)").stdout.hasPrefix("HTTP/1.1 200"))
        // A page that does not exist says so in one line, with the status a browser shows.
        let missing = try served.curl("/stores/u1/documents/users/u1/books/nope")
        #expect(missing.stdout.hasPrefix("HTTP/1.1 404"))
        #expect(missing.stdout.contains("there is no document at users/u1/books/nope in any checkpoint of u1"))
        #expect(try served.curl("/stores/nobody").stdout.hasPrefix("HTTP/1.1 404"))
        #expect(try served.curl("/stores/u1/documents/users/u1/b%FF").stdout.hasPrefix("HTTP/1.1 400"))
        #expect(try served.curl("/stores/u1/documents/users%2Fu1/books/b1").stdout.hasPrefix("HTTP/1.1 400"), "one segment is one name")
        #expect(try served.curl("/stores/%2E%2E").stdout.hasPrefix("HTTP/1.1 400"), "not a user id")
    }

    /// HTTP that a browser never sends, but a hostile page's tricks or a confused proxy might,
    /// is refused before any page is drawn: each case gets 400 or 421, and the connection is
    /// closed. A well-formed request on the same server still gets its page.
    @Test func requestsTheRulesOfHTTPRefuseGet400Or421() throws {
        let (devices, _) = try Self.aMergeThatDecided()
        let served = try Served(devices, "tablet")
        defer { _ = served.stop() }
        let port = try #require(Int(served.base.split(separator: ":").last ?? ""))
        let host = "127.0.0.1:\(port)"
        func status(_ head: String) throws -> String {
            let answer = try Loopback.exchange(port: port, Array(head.utf8))
            return String(String(decoding: answer, as: UTF8.self).prefix(12))
        }
        let good = try status("GET /stores/u1 HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        #expect(good == "HTTP/1.1 200", "\(good)")
        let cases: [(String, String)] = [
            ("two Host headers", "GET /stores/u1 HTTP/1.1\r\nHost: \(host)\r\nHost: evil.com\r\nConnection: close\r\n\r\n"),
            (
                "two Host headers, the foreign one first",
                "GET /stores/u1 HTTP/1.1\r\nHost: evil.com\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
            ),
            ("no Host", "GET /stores/u1 HTTP/1.1\r\nConnection: close\r\n\r\n"),
            ("an absolute-form target elsewhere", "GET http://evil.com/stores/u1 HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"),
            ("an absolute-form target here", "GET http://\(host)/stores/u1 HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"),
            ("a Host with a path", "GET /stores/u1 HTTP/1.1\r\nHost: \(host)/x\r\nConnection: close\r\n\r\n"),
            ("a Host with userinfo", "GET /stores/u1 HTTP/1.1\r\nHost: user@\(host)\r\nConnection: close\r\n\r\n"),
            ("a foreign Host", "GET /stores/u1 HTTP/1.1\r\nHost: evil.com:\(port)\r\nConnection: close\r\n\r\n"),
            ("HTTP/1.0", "GET /stores/u1 HTTP/1.0\r\nHost: \(host)\r\n\r\n"),
            ("HTTP/1.0 without Host", "GET /stores/u1 HTTP/1.0\r\n\r\n"),
            (
                "oversized headers",
                "GET /stores/u1 HTTP/1.1\r\nHost: \(host)\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\nConnection: close\r\n\r\n"
            ),
            ("an asterisk-form target", "OPTIONS * HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"),
        ]
        for (what, head) in cases {
            let answer = try status(head)
            #expect(answer == "HTTP/1.1 400" || answer == "HTTP/1.1 421", "\(what): \(answer)")
        }
        // The server is still there and well after all of it.
        #expect(try served.curl("/stores/u1").stdout.hasPrefix("HTTP/1.1 200"))
    }

    @Test func aDocumentIdOfAnyCharactersHasItsPage() throws {
        let devices = try Devices(schema: nil)
        try devices.start("phone")
        let id = "ré sumé %2F & <b>"
        try devices.put("phone", "users/u1/notes/\(id)", #"{"text":"<script>alert(1)</script>","count":1}"#)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        try devices.put("phone", "users/u1/notes/\(id)", #"{"text":"two","count":2}"#)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        let served = try Served(devices, "phone")
        defer { _ = served.stop() }
        let store = try served.curl("/stores/u1").stdout
        let link = try #require(
            store.range(of: #"/stores/u1/documents/users/u1/notes/[^"]+"#, options: .regularExpression).map { String(store[$0]) })
        #expect(link == "/stores/u1/documents/users/u1/notes/r%C3%A9%20sum%C3%A9%20%252F%20%26%20%3Cb%3E")
        let page = try served.curl(link).stdout
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(400))")
        #expect(page.contains("<h1>users/u1/notes/ré sumé %2F &amp; &lt;b&gt;</h1>"))
        #expect(!page.contains("<script>"), "values are escaped")
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("<figcaption>/count</figcaption>"), "the number plotted over its two checkpoints")
    }

    @Test func badInputIsOneLineAndNothingListens() throws {
        let devices = try Devices(schema: nil)
        try devices.start("phone")
        let port = try devices.on("phone", "web", "--port", "70000")
        #expect(port.status == 64)
        #expect(port.stderr.contains("--port must be a port number from 0 to 65535 (0 for any free one), not 70000"), "\(port.stderr)")
        let nobody = try devices.on("phone", "web", "--port", "0", user: "nobody")
        #expect(nobody.status == 1)
        #expect(nobody.stderr.split(separator: "\n").count == 1 && nobody.stderr.hasPrefix("cairn: "), "\(nobody.stderr)")
        let taken = try UnansweringListener()
        let busy = try runBounded(CLI.executable, ["--home", devices.home("phone"), "web", "--port", "\(taken.port)"], limit: 30)
        #expect(busy.status == 1)
        #expect(busy.stderr.hasPrefix("cairn: cannot serve on 127.0.0.1:\(taken.port): "), "\(busy.stderr)")
        #expect(
            busy.stderr.hasSuffix("; choose another port with --port\n") && busy.stderr.split(separator: "\n").count == 1, "\(busy.stderr)")
        #expect(busy.stdout == "", "no address printed")

        // The tool alone, without its server beside it, says what is missing.
        let alone = TemporaryFolder("cairn-alone")
        try FileManager.default.copyItem(atPath: CLI.executable, toPath: alone.path + "/cairn")
        let missing = try runBounded(alone.path + "/cairn", ["--home", devices.home("phone"), "web", "--port", "0"], limit: 30)
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "cairn: cannot run \(alone.path)/cairn-web: No such file or directory; install cairn-web beside cairn (swift build --product cairn-web builds it)\n",
            "\(missing.stderr)")
    }

    /// The table row of `dom` that holds `text`.
    static func row(containing text: String, in dom: String) -> String? {
        guard let hit = dom.range(of: text),
            let start = dom.range(of: "<tr>", options: .backwards, range: dom.startIndex..<hit.lowerBound),
            let end = dom.range(of: "</tr>", range: hit.upperBound..<dom.endIndex)
        else { return nil }
        return String(dom[start.lowerBound..<end.upperBound])
    }
}
