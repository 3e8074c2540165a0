import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A device whose clock runs far ahead: its stamps win last-writer-wins merges as the schema
/// says, and the merge says so — in the sync's output, the merge commit and `cairn conflicts`.
@Suite(.historiesVerified) struct SkewedClocksTests {
    let devices: Devices

    init() throws { devices = try Devices(schema: "life-in-uk") }

    func book(_ completed: Bool, at stamp: Int64) -> String {
        #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":\#(completed),"updatedAt":\#(stamp)}},"updatedAt":\#(stamp)}"#
    }

    @Test func aStampFromTheFutureIsNamedInTheMerge() throws {
        try devices.start("phone")
        try devices.on("phone", "put", "users/u1/books/b1", input: book(false, at: 10))
        #expect(try devices.on("phone", "sync").status == 0)
        try devices.clone("tablet")

        // The phone's clock says 2286; the tablet's is right.
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        try devices.on("phone", "put", "users/u1/books/b1", input: book(true, at: 9_999_999_999_000))
        try devices.on("tablet", "put", "users/u1/books/b1", input: book(false, at: now))
        #expect(try devices.on("phone", "sync").status == 0)
        let merged = try devices.on("tablet", "sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("users/u1/books/b1#/sections/s1 [lww(updatedAt)] kept"), "\(merged.stdout)")
        #expect(merged.stdout.contains("ahead of the merging device's clock)"), "\(merged.stdout)")
        // The schema does not clamp: the stamp from the future wins, as written.
        #expect(try devices.on("tablet", "get", "users/u1/books/b1").stdout.contains("\"updatedAt\": 9999999999000"))
        let conflicts = try devices.on("tablet", "conflicts")
        #expect(conflicts.stdout.contains("ahead of the merging device's clock"), "\(conflicts.stdout)")
    }
}
