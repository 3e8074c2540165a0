import CairnMerge
import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// The splicer must build exactly the trees libgit2 builds, as objects git reads.
@Suite struct TreeSplicerTests {
    let temporary = TemporaryFolder("cairn-trees")
    var folder: String { temporary.path }

    @Test func buildsTheSameTreesAsLibgit2() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        var generator = SplitMix(seed: 2026)
        let blobs = try (0..<8).map { try repository.writeBlob(Array("{\"v\":\($0)}\n".utf8)) }
        // Names chosen to exercise git's order: a folder "a" sorts as "a/", after "a.json" and "a-b".
        let names = ["a", "a.json", "a-b", "a0", "b", "books", "b.json", "z", "Z", "é", "a b"]
        func randomPath() -> String {
            let depth = Int.random(in: 1...3, using: &generator)
            return (0..<depth).map { _ in names.randomElement(using: &generator)! }.joined(separator: "/") + ".json"
        }
        var ours = try repository.emptyTree()
        var theirs = ours
        var present: [String] = []
        for round in 0..<300 {
            var updates: [TreeUpdate] = []
            var touched = Set<String>()
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                if !present.isEmpty, Bool.random(using: &generator) {
                    let path = present.randomElement(using: &generator)!
                    guard touched.insert(path).inserted else { continue }
                    updates.append(
                        Bool.random(using: &generator)
                            ? .remove(path: path)
                            : .upsert(path: path, id: blobs.randomElement(using: &generator)!, mode: 0o100644))
                } else {
                    let path = randomPath()
                    // A path whose folders are files elsewhere (x.json/…) cannot be built by either.
                    func clash(_ other: String) -> Bool { other.hasPrefix(path + "/") || path.hasPrefix(other + "/") }
                    guard !present.contains(where: clash), !touched.contains(where: clash),
                        touched.insert(path).inserted
                    else { continue }
                    updates.append(
                        .upsert(
                            path: path, id: blobs.randomElement(using: &generator)!,
                            mode: Bool.random(using: &generator) ? 0o100644 : 0o100755))
                }
            }
            guard !updates.isEmpty else { continue }
            let updated = try repository.updateTree(ours, with: updates)
            for update in updates {
                guard case .upsert(let path, _, _) = update else { continue }
                #expect((updated.previous[path] != nil) == present.contains(path), "previous of \(path)")
            }
            ours = updated.id
            theirs = try repository.updateTreeWithLibgit2(theirs, with: updates)
            #expect(ours == theirs, "round \(round): \(updates)")
            if ours != theirs { return }
            for update in updates {
                switch update {
                case .upsert(let path, _, _): if !present.contains(path) { present.append(path) }
                case .remove(let path): present.removeAll { $0 == path }
                }
            }
        }
        #expect(present.count > 20)
        let someone = Signature(name: "T", email: "t@example.invalid", time: 1_730_000_000)
        try repository.createCommit(tree: ours, parents: [], message: "m\n", author: someone, committer: someone, updating: "HEAD")
        #expect(try git("fsck", "--strict", "--full", in: folder + "/r").status == 0)
    }

    @Test func refusesToTurnAFileIntoAFolder() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        let blob = try repository.writeBlob(Array("x".utf8))
        let tree = try repository.updateTree(repository.emptyTree(), with: [.upsert(path: "a", id: blob, mode: 0o100644)]).id
        #expect(throws: GitError.self) { try repository.updateTree(tree, with: [.upsert(path: "a/b", id: blob, mode: 0o100644)]).id }
        #expect(throws: GitError.self) {
            try repository.updateTree(tree, with: [.upsert(path: "c", id: blob, mode: 0o100644), .remove(path: "c")]).id
        }
    }

    @Test func aLargeFolderKeepsItsUntouchedEntriesByteForByte() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        let blob = try repository.writeBlob(Array("{}\n".utf8))
        let many = (0..<5_000).map { TreeUpdate.upsert(path: "users/u1/attempts/a\($0).json", id: blob, mode: 0o100644) }
        let big = try repository.updateTree(repository.emptyTree(), with: many).id
        #expect(big == (try repository.updateTreeWithLibgit2(repository.emptyTree(), with: many)))
        let changed = try repository.updateTree(
            big,
            with: [
                .remove(path: "users/u1/attempts/a17.json"),
                .upsert(path: "users/u1/attempts/new.json", id: blob, mode: 0o100644),
            ]
        ).id
        #expect(
            changed
                == (try repository.updateTreeWithLibgit2(
                    big,
                    with: [
                        .remove(path: "users/u1/attempts/a17.json"),
                        .upsert(path: "users/u1/attempts/new.json", id: blob, mode: 0o100644),
                    ])))
    }
}
