import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// "Why does this book show s1 done, and who did it?": `cairn blame` tells, for each value of
/// a document, the checkpoint and the device that set it, and the merge whose policy kept it;
/// each checkpoint names its device (`CAIRN_DEVICE_NAME`, the store's `cairn.deviceName`, or
/// the host).
@Suite(.historiesVerified) struct HistoryBlameTests {
    static let book = "users/u1/books/b1"

    static func book(_ sections: String) -> String {
        #"{"schemaVersion":1,"bookId":"b1","sections":{\#(sections)}}"#
    }

    /// The phone named by `CAIRN_DEVICE_NAME`, the tablet by its store's `cairn.deviceName`.
    static func twoNamedDevices() throws -> Devices {
        let devices = try Devices(schema: "life-in-uk")
        let created = try devices.on(
            "phone", "init", "u1", "--schema", "life-in-uk", "--remote", devices.remote(), user: nil,
            environment: ["CAIRN_DEVICE_NAME": "phone"])
        #expect(created.status == 0, "\(created.stderr)")
        return devices
    }

    @Test func eachValueNamesTheCheckpointAndDeviceThatSetItAndTheMergeThatKeptIt() throws {
        let devices = try Self.twoNamedDevices()
        let phone = ["CAIRN_DEVICE_NAME": "phone"]
        #expect(
            try devices.on(
                "phone", "put", Self.book, input: Self.book(#""s1":{"completed":true,"updatedAt":1730000000000}"#), environment: phone
            ).status == 0)
        try devices.sync("phone", environment: phone)
        try devices.clone("tablet")
        _ = try devices.git("tablet", "config", "cairn.deviceName", "tablet")

        // Offline: the phone reads s2 and marks s1 again later; the tablet marks s1 not done.
        #expect(
            try devices.on(
                "phone", "put", Self.book,
                input: Self.book(#""s1":{"completed":true,"updatedAt":1730300000000},"s2":{"completed":true,"updatedAt":1730100000000}"#),
                environment: phone
            ).status == 0)
        try devices.put("tablet", Self.book, Self.book(#""s1":{"completed":false,"updatedAt":1730250000000}"#))
        try devices.sync("phone", environment: phone)
        try devices.sync("tablet")

        let first = try devices.git("tablet", "log", "--format=%H", "--diff-filter=A", "--", "users/u1/books/b1.json")
        let phoneSecond = try devices.git("tablet", "rev-parse", "HEAD^2")
        let merge = try devices.git("tablet", "rev-parse", "HEAD")
        #expect(
            try devices.git("tablet", "log", "-1", "--format=%(trailers:key=Cairn-Device-Name,valueonly)").hasPrefix("tablet"),
            "the merge names the device that made it")
        let blame = try devices.on("tablet", "blame", Self.book)
        #expect(blame.status == 0, "\(blame.stderr)")
        let lines = blame.stdout.split(separator: "\n").map(String.init)
        func line(_ pointer: String) -> String? { lines.first { $0.contains("  \(pointer): ") } }
        #expect(line("/bookId")?.hasPrefix(String(first.prefix(7)) + " ") == true, "\(blame.stdout)")
        #expect(line("/bookId")?.contains(" phone  /bookId: \"b1\"") == true, "\(blame.stdout)")
        #expect(line("/sections/s2/completed")?.hasPrefix(String(phoneSecond.prefix(7))) == true, "\(blame.stdout)")
        // s1 was done from the first checkpoint on the phone's side; the merge kept that side.
        #expect(line("/sections/s1/completed")?.hasPrefix(String(first.prefix(7))) == true, "\(blame.stdout)")
        #expect(line("/sections/s1/updatedAt")?.hasPrefix(String(phoneSecond.prefix(7))) == true, "\(blame.stdout)")
        #expect(
            line("/sections/s1/completed")?.hasSuffix(": true  [\(merge.prefix(7)) lww(updatedAt) kept it, replaced false]") == true,
            "\(blame.stdout)")
        #expect(line("/sections/s1/updatedAt")?.hasSuffix("[\(merge.prefix(7)) lww(updatedAt) kept it, replaced 1730250000000]") == true)
        #expect(line("/sections/s2/completed")?.contains("[") == false, "no merge decided s2")

        // For scripts, and checked against git: each value's checkpoint holds it, its parents do not.
        let json = try ScriptOutputTests.json(devices.on("tablet", "blame", Self.book, "--json"))
        #expect(ScriptOutputTests.text(json, "checkpoint") == merge)
        let values = ScriptOutputTests.count(ScriptOutputTests.at(json, "values")) ?? 0
        #expect(values == lines.count && values == 8, "\(blame.stdout)")
        for index in 0..<values {
            let pointer = ScriptOutputTests.text(json, "values", index, "pointer") ?? ""
            let value = ScriptOutputTests.at(json, "values", index, "value")
            let id = ScriptOutputTests.text(json, "values", index, "checkpoint", "id") ?? ""
            let at = try document(devices, id)
            #expect(JSONValue.same(at?.value(atTokens: JSONValue.tokens(ofPointer: pointer)), value), "\(pointer) at \(id)")
            for parent in try devices.git("tablet", "rev-list", "--parents", "-n", "1", id).split(separator: " ").dropFirst() {
                let before = try document(devices, String(parent))
                #expect(
                    !JSONValue.same(before?.value(atTokens: JSONValue.tokens(ofPointer: pointer)), value),
                    "\(pointer): \(parent) holds it already")
            }
        }
        let decided = (0..<values).first { ScriptOutputTests.text(json, "values", $0, "pointer") == "/sections/s1/completed" } ?? -1
        #expect(ScriptOutputTests.text(json, "values", decided, "decision", "merge") == merge)
        #expect(ScriptOutputTests.text(json, "values", decided, "decision", "conflict", "policy") == "lww(updatedAt)")
        #expect(ScriptOutputTests.text(json, "values", decided, "checkpoint", "deviceName") == "phone")
        #expect(ScriptOutputTests.at(json, "values", 0, "decision") == .null)
    }

    /// The book at a commit, read with git; nil when it has none.
    func document(_ devices: Devices, _ commit: String) throws -> JSONValue? {
        let shown = try runProcess("/usr/bin/git", ["-C", devices.store("tablet"), "show", "\(commit):users/u1/books/b1.json"])
        return shown.status == 0 ? try JSONParser().parse(shown.stdout) : nil
    }

    @Test func aDeviceWithoutANameRecordsItsHostAndEveryCheckpointNamesIt() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("laptop")
        try devices.put("laptop", Self.book, Self.book(#""s1":{"completed":true,"updatedAt":1}"#))
        try devices.on("laptop", "checkpoint")
        let host = try runProcess("/bin/hostname", []).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!host.isEmpty)
        let names = try devices.git("laptop", "log", "--format=%(trailers:key=Cairn-Device-Name,valueonly)").split(separator: "\n")
        #expect(names.count == 2 && names.allSatisfy { $0 == host }, "\(names)")
        let json = try ScriptOutputTests.json(devices.on("laptop", "log", "--json"))
        #expect(ScriptOutputTests.text(json, "checkpoints", 0, "deviceName") == host)
        #expect(ScriptOutputTests.text(json, "checkpoints", 0, "device")?.count == 12)
        // A name with a line break cannot break the message's trailers.
        try devices.put("laptop", Self.book, Self.book(#""s1":{"completed":false,"updatedAt":2}"#))
        #expect(try devices.on("laptop", "checkpoint", environment: ["CAIRN_DEVICE_NAME": "Anna's\nlaptop"]).status == 0)
        #expect(try devices.git("laptop", "log", "-1", "--format=%(trailers:key=Cairn-Device-Name,valueonly)") == "Anna's laptop")
    }

    @Test func aDocumentOrRevisionThatDoesNotExistIsOneLine() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", Self.book, Self.book(#""s1":{"completed":true,"updatedAt":1}"#))
        for (arguments, says) in [
            (["blame", Self.book], "there is no document at users/u1/books/b1 at HEAD"),
            (["blame", Self.book, "--at", "nosuch"], "unknown revision \"nosuch\""),
            (["blame", "users/u1/books/../b1"], "invalid ID \"..\""),
            (["blame", "users/u2/books/b1"], "u2"),
        ] {
            let result = try devices.on("phone", arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
    }
}
