import CairnCore
import CairnMerge
import CairnServer
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A user's repository made again from git bundles — restored from a backup, or copied from
/// another shard — as `cairn server init` makes it (with the hooks), filled by fetching each
/// bundle in turn, checked, and only then renamed into place: a request never finds half of
/// it.
struct RepositoryRebuild: Sendable {
    let folder: ShardFolder
    let cairn: String
    let schemaSet: SchemaSetFiles?

    /// Why a user's repository was not made: one line, naming what disagreed.
    struct Refusal: Error {
        let reason: String
    }

    /// Makes the repository of `uid` from `bundles` (none: a user with no commit yet); its refs
    /// must be `expected` when given, and with `audit`, its history must pass `cairn verify`.
    /// A repository already there is refused unless `replacing` (then kept aside in
    /// `.cairn-shard/replaced/`). Returns its refs.
    func build(
        _ uid: String, from bundles: [String], expecting expected: [String: String]? = nil,
        replacing: Bool = false, audit: Bool = false
    ) async throws(Refusal) -> [String: String] {
        do { try Home.validate(uid: uid) } catch { throw Refusal(reason: "not a user ID Cairn takes: \(error.message)") }
        let final = folder.repository(uid)
        if FileSystem.kind(final) != nil, !replacing { throw Refusal(reason: "\(final) exists already") }
        let workspace: String
        switch Syscalls.makeUniqueFolder(folder.path + "/.rebuilding-XXXXXX") {
        case .success(let made): workspace = made
        case .failure(let error): throw Refusal(reason: "cannot make a repository in \(folder.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: workspace) }
        let repository: String
        do {
            repository = try Server.createRepositories(in: workspace, uids: [uid], cairn: cairn, schemaSet: schemaSet)[0]
        } catch {
            throw Refusal(reason: "cannot make the repository of \(uid): \(error.message)")
        }
        do {
            for bundle in bundles {
                let fetched = try await GitBundles.fetch(bundle, into: repository)
                guard fetched.succeeded else {
                    throw Refusal(reason: "\(FileSystem.lastComponent(of: bundle)) does not apply: \(fetched.lastError)")
                }
            }
            let refs = try await GitBundles.refs(of: repository)
            if let expected, refs != expected {
                let differing = Set(refs.keys).union(expected.keys).sorted().first { refs[$0] != expected[$0] } ?? "?"
                throw Refusal(
                    reason:
                        "\(differing) should be \(expected[differing] ?? "absent"), and the bundles give \(refs[differing] ?? "nothing")")
            }
            if audit, !refs.isEmpty {
                let result = try Store.verifyRepository(at: repository, range: "HEAD")
                guard result.isSound else {
                    throw Refusal(reason: "its history does not verify: \(result.findings.first.map { $0.description } ?? "")")
                }
            }
            if FileSystem.kind(final) != nil {
                let aside = folder.state + "/replaced"
                try FileSystem.makeFolders(aside)
                var target = aside + "/\(uid).git"
                var suffix = 1
                while FileSystem.kind(target) != nil {
                    suffix += 1
                    target = aside + "/\(uid).git.\(suffix)"
                }
                try FileSystem.move(final, to: target)
            }
            try FileSystem.move(repository, to: final)
            try folder.welcomeBack(uid)
            return refs
        } catch let refusal as Refusal {
            throw refusal
        } catch let error as BackupError {
            throw Refusal(reason: error.description)
        } catch let error as CairnError {
            throw Refusal(reason: error.message)
        } catch {
            throw Refusal(reason: "\(error)")
        }
    }
}
