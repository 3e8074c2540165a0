import CairnCore
import CairnMerge
import Git
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks a user's bare repository runs on every push (`cairn hook pre-receive`), the
/// server's side of the Firestore rule `request.auth.uid == uid`: the pusher
/// (`REMOTE_USER`, set by the web server; `GL_USER`, set by gitolite) is the repository's user
/// (`<uid>.git`), and every update meets the ``PushRules`` (documents checked against the
/// server's own copy of the schema set, else the one the repository already holds).
///
/// In a content item's repository (`content/<collection>/<item>.git`, config
/// `cairn.content`), the pusher must be one of the collection's authors when the collection
/// names them (``Server/authorsFile``), and every update meets the ``ContentPushRules``
/// against the collection's schema set.
public struct PreReceiveHook {
    /// The repository's user (or, for content, its item), from its folder name.
    public let uid: String
    /// The collection of a content item's repository; nil for a user's.
    public let contentCollection: String?
    /// The authenticated user the web server (or gitolite) names, if any.
    public let remoteUser: String?
    let rules: PushRules
    let repository: Repository

    /// Opens the repository git runs the hook in (`GIT_DIR`, else the current folder).
    /// `environment`: the variables the web server or gitolite gave the hook, of which
    /// `REMOTE_USER` or `GL_USER` names the authenticated user.
    public init(environment: [String: String]) throws(CairnError) {
        let repository: Repository
        do {
            repository = try Repository.openFromEnvironment()
        } catch {
            throw CairnError(
                .notFound, "the pre-receive hook runs inside a user's repository on the server (\(error.message))",
                remedy: .createRemoteRepository, cause: error)
        }
        self.repository = repository
        contentCollection = (try? repository.config(Server.contentConfigKey)).flatMap { $0 }
        uid = contentCollection != nil ? repository.bareName : repository.progressOwner
        remoteUser = [environment["REMOTE_USER"], environment["GL_USER"]].lazy.compactMap { $0 }.first { !$0.isEmpty }
        rules = .server(repository, uid: uid)
    }

    /// Checks the updates git gives the hook on stdin (`<old> <new> <ref>` per line); throws
    /// the refusals, one per line, each naming the document and the rule.
    public func check(_ input: String) throws(CairnError) {
        var refusals: [String] = []
        // The remedy of a failure to check, which a program words after the refusal.
        var remedy: CairnError.Remedy?
        var content: ContentPushRules?
        if let contentCollection {
            let folder = FileSystem.parent(of: String(repository.gitdir.dropLast(repository.gitdir.hasSuffix("/") ? 1 : 0)))
            do throws(CairnError) {
                if let remoteUser, let authors = try Server.authors(inCollectionFolder: folder), !authors.contains(remoteUser) {
                    // The server's folders are not named to the pusher, only the collection's.
                    refusals.append(
                        "user \(remoteUser) is not an author of \(contentCollection) (\(Server.contentFolder)/\(contentCollection)/\(Server.authorsFile)); only authors publish content"
                    )
                }
                let files = SchemaSetFiles(name: contentCollection, files: try Server.schemaFiles(inCollectionFolder: folder))
                let set = try SchemaSet(reading: files, then: "the push is refused")
                guard set.contentCollection == contentCollection else {
                    throw CairnError(
                        .corrupt,
                        "the schema set of \(Server.contentFolder)/\(contentCollection)/\(Server.contentSchemaFolder) is not a content set of the collection \(contentCollection); the push is refused"
                    )
                }
                content = ContentPushRules(repository: repository, collection: contentCollection, item: uid, schemaSet: set)
            } catch {
                refusals.append("cannot check the push: \(error.message)")
                remedy = error.remedy
            }
        } else if let remoteUser, remoteUser != uid {
            refusals.append("user \(remoteUser) may not push to the progress of \(uid)")
        }
        for line in input.split(separator: "\n") where refusals.isEmpty {
            let fields = line.split(separator: " ")
            guard fields.count == 3 else {
                refusals.append("unreadable update line \(String(reflecting: String(line)))")
                continue
            }
            let zero = String(repeating: "0", count: 40)
            let old = fields[0] == zero ? nil : ObjectID(hex: String(fields[0]))
            let new = fields[1] == zero ? nil : ObjectID(hex: String(fields[1]))
            do {
                refusals +=
                    try content.map { try $0.refusals(updating: String(fields[2]), from: old, to: new) }
                    ?? rules.refusals(updating: String(fields[2]), from: old, to: new)
            } catch let error as CairnError {
                refusals.append("cannot check the push: \(error.message)")
                remedy = error.remedy
            } catch {
                refusals.append("cannot check the push: \(error)")
            }
        }
        guard refusals.isEmpty else {
            let shown = refusals.prefix(20).joined(separator: "\n")
            let more = refusals.count > 20 ? "\n… and \(refusals.count - 20) more" : ""
            throw CairnError(.refused, shown + more, remedy: remedy)
        }
    }

    /// Once the push is accepted: marks each update of `main` that changes or removes an
    /// asset's pointer for the post-receive hook (``SweepMarks``), so that only those pushes
    /// start a program after they land. Returns a line for the pusher when a mark cannot be
    /// written: the push goes in, and the assets it left stay on the server until a later
    /// push's sweep.
    public func markSweeps(_ input: String) -> String? {
        guard contentCollection == nil else { return nil }
        let marks = SweepMarks(repository: repository)
        let zero = String(repeating: "0", count: 40)
        for line in input.split(separator: "\n") {
            let fields = line.split(separator: " ")
            // A branch made by this push had no assets before it.
            guard fields.count == 3, fields[2] == "refs/heads/" + Store.branch, fields[0] != zero, fields[1] != zero,
                let old = ObjectID(hex: String(fields[0])), let new = ObjectID(hex: String(fields[1]))
            else { continue }
            do {
                if try SweepMarks.mayLeaveAssets(repository, from: old, to: new) {
                    try marks.mark(from: old, to: new)
                }
            } catch {
                return
                    "cannot mark the push for the removal of the assets it leaves behind (\(error)); they stay on the server until a later push removes them"
            }
        }
        return nil
    }
}
