import Testing

@testable import GitFormat

/// Tree updates sorted into folders; paths that cannot be in a tree are refused.
@Suite struct TreeChangesTests {
    let blob = ObjectID(hashing: Array("{}\n".utf8), type: .blob)

    @Test func updatesAreSortedIntoTheirFolders() throws {
        let changes = try TreeChanges.sorting([
            .upsert(path: "users/u1/a.json", id: blob, mode: 0o100644),
            .remove(path: "users/u1/b.json"),
            .upsert(path: "users/u2.json", id: blob, mode: 0o100755),
            .remove(path: "top.json"),
        ])
        #expect(Set(changes.files.keys) == [Array("top.json".utf8)])
        let users = try #require(changes.folders[Array("users".utf8)])
        #expect(Set(users.files.keys) == [Array("u2.json".utf8)])
        let user = try #require(users.folders[Array("u1".utf8)])
        #expect(Set(user.files.keys) == [Array("a.json".utf8), Array("b.json".utf8)])
        guard case .upsert(let id, let mode) = try #require(user.files[Array("a.json".utf8)]) else {
            Issue.record("a.json is not an upsert")
            return
        }
        #expect(id == blob && mode == 0o100644)
        guard case .remove = try #require(user.files[Array("b.json".utf8)]) else {
            Issue.record("b.json is not a removal")
            return
        }
    }

    @Test(arguments: ["", "/a.json", "a//b.json", "a/", "a/b/"])
    func anInvalidPathIsRefused(path: String) {
        do {
            _ = try TreeChanges.sorting([.upsert(path: path, id: blob, mode: 0o100644)])
            Issue.record("took \(path)")
        } catch {
            #expect(error.code == .invalidUpdate)
            #expect(error.message == "invalid path \(path) in a tree update")
            #expect(error.operation == "cairn_tree_update")
        }
    }

    @Test(arguments: [["a.json", "a.json"], ["a", "a/b.json"], ["a/b.json", "a"]])
    func aPathGivenTwiceIsRefused(paths: [String]) {
        do {
            _ = try TreeChanges.sorting(paths.map { .upsert(path: $0, id: blob, mode: 0o100644) })
            Issue.record("took \(paths)")
        } catch {
            #expect(error.code == .invalidUpdate)
            #expect(error.message == "duplicate entries given for \(paths[1])")
        }
    }
}
