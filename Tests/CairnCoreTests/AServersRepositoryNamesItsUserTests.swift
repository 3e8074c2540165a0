import CairnTestSupport
import CairnToolTestSupport
import Git
import Testing

@testable import CairnCore

/// A server's bare repository holds one user's progress: the user its `cairn.uid` names
/// (`cairn server init` sets it), else the one its folder is named after. The pre-receive
/// hook and `cairn verify --git-dir` read it alike.
@Suite(.historiesVerified) struct AServersRepositoryNamesItsUserTests {
    let folder = TemporaryFolder("cairn-bare-owner")

    @Test func theFolderNamesTheUserWithoutConfiguration() throws {
        let repository = try Repository.create(at: folder.path + "/u7.git", initialBranch: "main", bare: true)
        #expect(repository.bareName == "u7")
        #expect(repository.progressOwner == "u7")
    }

    @Test func cairnUIDNamesTheUser() throws {
        let repository = try Repository.create(at: folder.path + "/backup.git", initialBranch: "main", bare: true)
        try repository.setConfig("cairn.uid", to: "u9")
        #expect(repository.bareName == "backup")
        #expect(repository.progressOwner == "u9")
    }

    @Test func anEmptyCairnUIDIsNoName() throws {
        let repository = try Repository.create(at: folder.path + "/u3.git", initialBranch: "main", bare: true)
        try repository.setConfig("cairn.uid", to: "")
        #expect(repository.progressOwner == "u3")
    }
}
