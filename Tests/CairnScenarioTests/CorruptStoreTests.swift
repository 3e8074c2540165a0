import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A store whose git files are damaged — a flipped byte, a truncated pack — fails with a
/// "corrupt store" error and never shows wrong content; `cairn repair` restores it from its
/// remote and keeps the documents that were not pushed yet.
@Suite(.historiesVerified) struct CorruptStoreTests {
    let devices: Devices
    var folder: TemporaryFolder { devices.folder }

    init() throws { devices = try Devices() }

    func store(_ device: String) -> String { devices.store(device) }

    /// Five attempts in three checkpoints, pushed, with long enough text to be worth compressing.
    func makeStore(_ device: String) throws -> [String: String] {
        try devices.start(device)
        var random = SplitMix(seed: 42)
        var expected: [String: String] = [:]
        for round in 0..<3 {
            for slot in 0..<2 where round * 2 + slot < 5 {
                let id = "a\(round * 2 + slot)"
                let words = (0..<40).map { _ in String(random.next() % 100_000) }.joined(separator: " ")
                #expect(
                    try devices.on(device, "put", "users/u1/examAttempts/\(id)", input: #"{"id":"\#(id)","notes":"\#(words)"}"#).status == 0
                )
            }
            #expect(try devices.on(device, "checkpoint").status == 0)
        }
        #expect(try devices.on(device, "sync").status == 0)
        for index in 0..<5 {
            expected["users/u1/examAttempts/a\(index)"] = try devices.on(device, "get", "users/u1/examAttempts/a\(index)").stdout
        }
        return expected
    }

    /// The store's object files: packs, their indexes and loose objects.
    func objectFiles(_ device: String) throws -> [String] {
        let objects = store(device) + "/.git/objects"
        return try FileManager.default.subpathsOfDirectory(atPath: objects)
            .filter { $0.hasPrefix("pack/pack-") || ($0.count == 41 && $0.dropFirst(2).first == "/") }
            .sorted()
            .map { objects + "/" + $0 }
    }

    func rewrite(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        change(&bytes)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func flippedBytesAreErrorsNeverWrongContent() throws {
        let expected = try makeStore("phone")
        HistoriesVerified.exempt(store("phone"), because: "its objects are damaged on purpose, byte by byte")
        let pristine = folder.path + "/pristine"
        try FileManager.default.copyItem(atPath: store("phone"), toPath: pristine)
        let files = try objectFiles("phone").map { String($0.dropFirst(store("phone").count)) }
        var (reads, errors, wrong) = (0, 0, 0)
        for file in files {
            let size = try FileManager.default.attributesOfItem(atPath: pristine + file)[.size] as! Int
            // Four positions a file, spread over headers, data and trailers (every byte of the
            // packs is flipped in DamagedObjectTests, in process).
            for position in stride(from: size / 8, to: size, by: max(1, size / 4)) {
                try FileManager.default.removeItem(atPath: store("phone"))
                try FileManager.default.copyItem(atPath: pristine, toPath: store("phone"))
                try rewrite(store("phone") + file) { $0[position] ^= 0x10 }
                for (path, content) in expected where path.hasSuffix("a0") || path.hasSuffix("a3") {
                    let read = try devices.on("phone", "get", path, "--at", "HEAD")
                    reads += 1
                    if read.status == 0 {
                        if read.stdout != content { wrong += 1 }
                        #expect(read.stdout == content, "byte \(position) of \(file) flipped: \(path) read otherwise")
                    } else {
                        errors += 1
                        #expect(read.stderr.hasPrefix("cairn: ") && read.stderr.split(separator: "\n").count == 1)
                        #expect(
                            read.stderr.contains("corrupt store") && read.stderr.contains("cairn repair"),
                            "byte \(position) of \(file) flipped: \(read.stderr)")
                    }
                }
            }
        }
        print("Flipped bytes: \(reads) reads, \(errors) refused as a corrupt store, \(wrong) wrong")
        #expect(errors > 0)
        #expect(wrong == 0)
    }

    @Test func aTruncatedPackIsACorruptStore() throws {
        _ = try makeStore("phone")
        for pack in try objectFiles("phone") where pack.hasSuffix(".pack") {
            try rewrite(pack) { $0.removeLast($0.count / 2) }
        }
        let log = try devices.on("phone", "log", "users/u1/examAttempts/a0")
        #expect(log.status != 0)
        #expect(log.stderr.contains("corrupt store"), "\(log.stderr)")
        let read = try devices.on("phone", "get", "users/u1/examAttempts/a0", "--at", "HEAD~1")
        #expect(read.status != 0)
        #expect(read.stderr.contains("corrupt store"), "\(read.stderr)")
    }

    @Test func repairKeepsWhatWasNotPushedAndMergesItWithTheRemote() throws {
        _ = try makeStore("phone")
        try devices.clone("tablet")
        // On the phone: a document changed, checkpointed but not pushed, and a pending write.
        try devices.on("phone", "put", "users/u1/profiles/p1", input: #"{"name":"Ada","level":1}"#)
        #expect(try devices.on("phone", "sync").status == 0)
        #expect(try devices.on("tablet", "sync").status == 0)
        try devices.on("phone", "put", "users/u1/profiles/p1", input: #"{"name":"Ada","level":2}"#)
        try devices.on("phone", "put", "users/u1/examAttempts/a7", input: #"{"id":"a7"}"#)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        try devices.on("phone", "put", "users/u1/examAttempts/a8", input: #"{"id":"a8"}"#)
        // Meanwhile the tablet changes another field of the same profile and pushes.
        try devices.on("tablet", "put", "users/u1/profiles/p1", input: #"{"name":"Ada","level":1,"city":"York"}"#)
        #expect(try devices.on("tablet", "sync").status == 0)
        // The phone's packs are damaged.
        for pack in try objectFiles("phone") where pack.hasSuffix(".pack") {
            try rewrite(pack) { $0.removeLast($0.count / 3) }
        }
        #expect(try devices.on("phone", "sync").stderr.contains("corrupt store"))

        let repair = try devices.on("phone", "repair")
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout.contains("kept 3 documents not yet pushed (1 merged with the remote's)"), "\(repair.stdout)")
        let damaged = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/phone/.damaged")
        #expect(damaged.count == 1 && damaged[0].hasPrefix("u1-"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/phone/.damaged/\(damaged[0])/users/u1/examAttempts/a8.json"))
        #expect(try runProcess("/usr/bin/git", ["-C", store("phone"), "fsck", "--full", "--strict"]).status == 0)

        #expect(try devices.on("phone", "sync").status == 0)
        #expect(try devices.on("tablet", "sync").status == 0)
        let profile = try devices.on("tablet", "get", "users/u1/profiles/p1").stdout
        #expect(profile.contains("\"level\": 2") && profile.contains("\"city\": \"York\""), "\(profile)")
        #expect(try devices.on("tablet", "ls", "users/u1/examAttempts").stdout.split(separator: "\n").count == 7)
        #expect(try devices.on("tablet", "get", "users/u1/examAttempts/a8").status == 0)
    }

    @Test func repairNeedsARemote() throws {
        #expect(try devices.on("solo", "init", "u1", user: nil).status == 0)
        let repair = try devices.on("solo", "repair")
        #expect(repair.status != 0)
        #expect(repair.stderr.contains("no remote to repair it from; name one with --from URL"), "\(repair.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/solo/u1/.cairn/store.json"))
    }
}
