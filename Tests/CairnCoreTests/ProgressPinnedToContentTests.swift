import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A student answers an assessment downloaded for offline use; each answer is pinned to the
/// version of the assessment it was given against. On sync, Cairn asks the server about that
/// version: unchanged, the answers go; updated, they wait for a decision (submit anyway, or
/// discard and download again); deleted, they stay here, flagged, and cannot be submitted.
/// Nothing is lost: discarded answers stay in history. Offline, writing needs no server.
@Suite(.historiesVerified) struct ProgressPinnedToContentTests {
    static let progress = SchemaSetFiles(
        name: "answers",
        files: [
            "response.schema.json": Array(
                #"""
                {"x-cairn": {"path": "users/{uid}/responses/{responseId}",
                             "pins": {"collection": "assessments", "item": "/assessment_id", "version": "/content_version"}},
                 "x-merge": "append-only", "type": "object", "required": ["assessment_id", "content_version"],
                 "properties": {"assessment_id": {"type": "string"}, "content_version": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                                "answer": {"type": "string"}}}
                """#.utf8),
            "note.schema.json": Array(#"{"x-cairn": {"path": "users/{uid}/notes/{noteId}"}, "type": "object"}"#.utf8),
        ])
    static let content = SchemaSetFiles(
        name: "assessments",
        files: [
            "assessment.schema.json": Array(#"{"x-cairn": {"content": true, "path": "assessments/{assessmentId}"}, "type": "object"}"#.utf8)
        ])

    let folder = TemporaryFolder("cairn-pins")
    var server: String { folder.path + "/server" }
    var homeRoot: String { folder.path + "/phone" }
    let options = SyncOptions(retry: .none, sleep: { _ in })

    func item(_ name: String) -> String { server + "/content/assessments/\(name).git" }

    @discardableResult
    func git(_ arguments: [String]) throws -> String {
        let result = try runProcess("/usr/bin/git", ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"] + arguments)
        #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Publishes a version of an item as an author would (a commit on the item's main),
    /// fetched into the bare repository so that no hook needs a cairn binary. Returns its commit.
    @discardableResult
    func publish(_ name: String, title: String) throws -> String {
        let work = folder.path + "/author-\(name)"
        if !FileManager.default.fileExists(atPath: work) { try git(["clone", "-q", item(name), work]) }
        try FileManager.default.createDirectory(atPath: work + "/assessments", withIntermediateDirectories: true)
        try Data(#"{"title":"\#(title)"}"#.utf8).write(to: URL(fileURLWithPath: work + "/assessments/\(name).json"))
        try git(["-C", work, "add", "-A"])
        try git(["-C", work, "commit", "-qm", title])
        try git(["--git-dir", item(name), "fetch", "-q", work, "+HEAD:refs/heads/main"])
        return try git(["--git-dir", item(name), "rev-parse", "main"])
    }

    /// What a download leaves on the device: a bare clone of the item in the home's content folder.
    func download(_ name: String) throws {
        let target = Home(root: homeRoot).contentRepository(collection: "assessments", item: name)
        try? FileManager.default.removeItem(atPath: target)
        try git(["clone", "-q", "--bare", item(name), target])
    }

    func serverMain() throws -> String {
        try git(["--git-dir", server + "/u1.git", "rev-parse", "main"])
    }

    /// A server with the user's repository and the assessments a1 and a2 (one version each),
    /// and a phone that synced once and downloaded a1.
    func phone() throws -> (Store, version: String) {
        _ = try Server.createRepositories(in: server, uids: ["u1"], cairn: "cairn")
        _ = try Server.createContent(in: server, collection: "assessments", items: ["a1", "a2"], cairn: "cairn", schemaSet: Self.content)
        let version = try publish("a1", title: "Algebra")
        try publish("a2", title: "Geometry")
        let store = try Home(root: homeRoot).createStore("u1", schemaSet: Self.progress)
        try store.setRemote(try RemoteURL(server + "/u1.git"))
        try store.sync(options)
        try download("a1")
        return (store, version)
    }

    func response(_ item: String, _ answer: String) -> JSONValue {
        .object(["assessment_id": .string(item), "answer": .string(answer)])
    }

    @Test func aPutPinsTheDownloadedVersionOfflineWithoutAServer() throws {
        _ = try Server.createContent(in: server, collection: "assessments", items: ["a1"], cairn: "cairn", schemaSet: Self.content)
        let version = try publish("a1", title: "Algebra")
        try download("a1")
        // No remote at all: writing never asks a server.
        let store = try Home(root: homeRoot).createStore("u1", schemaSet: Self.progress)
        let pinned = try DocumentPath("users/u1/responses/r1")
        try store.put(response("a1", "x = 2"), at: pinned)
        #expect(try store.document(at: pinned)?.field("content_version") == .string(version))
        // A version the app gives is kept; an item not downloaded leaves the document unpinned,
        // and then its schema (which requires the version) refuses it.
        let given = String(repeating: "a", count: 40)
        try store.put(
            .object(["assessment_id": .string("a1"), "content_version": .string(given)]), at: try DocumentPath("users/u1/responses/r2"))
        #expect(try store.document(at: try DocumentPath("users/u1/responses/r2"))?.field("content_version") == .string(given))
        #expect(throws: CairnError.self) { try store.put(response("a9", "?"), at: try DocumentPath("users/u1/responses/r3")) }
        #expect(
            try store.unsyncedPins() == [
                PinnedDocument(path: pinned, collection: "assessments", item: "a1", version: version),
                PinnedDocument(path: try DocumentPath("users/u1/responses/r2"), collection: "assessments", item: "a1", version: given),
            ])
        // Checkpointed and still never synced: all of them wait to be pushed.
        try store.checkpoint()
        #expect(try store.unsyncedPins().count == 2)
    }

    @Test func answersToAnUnchangedAssessmentArePushed() throws {
        let (store, version) = try phone()
        try store.put(response("a1", "x = 2"), at: try DocumentPath("users/u1/responses/r1"))
        let result = try store.sync(options)
        #expect(!result.held)
        #expect(result.pins.map(\.state) == [.unchanged])
        #expect(result.pins.first?.pinnedVersion == version)
        #expect(result.pins.first?.pinnedNumber == 1)
        #expect(result.pushedCommits == 1)
        #expect(try serverMain() == result.head?.hex)
        #expect(try store.unsyncedPins() == [])
    }

    @Test func answersToAnUpdatedAssessmentWaitThenGoWhenSubmittedAnyway() throws {
        let (store, version) = try phone()
        let before = try serverMain()
        let paths = [try DocumentPath("users/u1/responses/r1"), try DocumentPath("users/u1/responses/r2")]
        for path in paths { try store.put(response("a1", "answer"), at: path) }
        try store.put(.object(["text": .string("unpinned")]), at: try DocumentPath("users/u1/notes/n1"))
        let updated = try publish("a1", title: "Algebra, corrected")
        let held = try store.sync(options)
        #expect(held.held)
        #expect(held.pushedCommits == 0)
        #expect(try serverMain() == before, "nothing is pushed while answers are held")
        let check = try #require(held.pins.first)
        #expect(held.pins.count == 1)
        #expect((check.state, check.pinnedVersion, check.serverVersion) == (.updated, version, updated))
        #expect(check.documents == paths)
        #expect(held.heldDocuments.map(\.document) == paths)
        // The device holds version 1 only, so the server's is shown by its id.
        #expect(
            check.line(for: paths[0])
                == "users/u1/responses/r1: assessments/a1 version 1 (\(version.prefix(7))) was updated to version \(updated.prefix(7))")
        #expect(held.summary.contains("nothing pushed: 2 documents pinned to content that changed on the server"))
        // Held again on the next sync, until decided.
        #expect(try store.sync(options).held)
        let decision = try store.decide(.submitAnyway, collection: "assessments", item: "a1")
        #expect(decision.id != nil)
        let pushed = try store.sync(options)
        #expect(!pushed.held)
        #expect(pushed.pins.first?.submittedAnyway == true)
        #expect(try serverMain() == pushed.head?.hex)
        let log = try git(["--git-dir", server + "/u1.git", "log", "--format=%B", "main"])
        #expect(log.contains("Cairn-Content-Decision: submit-anyway assessments/a1 \(version)"))
        #expect(try store.unsyncedPins() == [])
    }

    /// Held answers hold back the push, not the fetch: a device waiting on a decision, whose
    /// only news are its own (so it tries its push first), still takes in what another
    /// device pushed meanwhile.
    @Test func aDeviceWaitingOnADecisionStillTakesInWhatOthersPushed() throws {
        let (store, _) = try phone()
        try store.put(response("a1", "answer"), at: try DocumentPath("users/u1/responses/r1"))
        try publish("a1", title: "Algebra, corrected")
        #expect(try store.sync(options).held)
        let tablet = try Home(root: folder.path + "/tablet").cloneStore(
            from: try RemoteURL(server + "/u1.git"), uid: "u1", options: options)
        let note = try DocumentPath("users/u1/notes/from-the-tablet")
        try tablet.put(.object(["text": .string("written on the tablet")]), at: note)
        #expect(try tablet.sync(options).pushedCommits == 1)
        let held = try store.sync(options)
        #expect(held.held)
        #expect(held.integration != .upToDate, "\(held.summary)")
        #expect(try store.document(at: note)?.field("text") == .string("written on the tablet"))
    }

    @Test func discardedAnswersGoBackToTheRemoteAndStayInHistory() throws {
        let (store, _) = try phone()
        let path = try DocumentPath("users/u1/responses/r1")
        try store.put(response("a1", "an answer to the old questions"), at: path)
        try publish("a1", title: "Algebra, corrected")
        #expect(try store.sync(options).held)
        let decision = try store.decide(.discard, collection: "assessments", item: "a1")
        #expect(decision.changes.map(\.path) == [path.fileName])
        #expect(try store.document(at: path) == nil, "a response the remote never had is gone")
        #expect(try store.unsyncedPins() == [])
        let message = try store.checkpoint("HEAD").message
        #expect(message.contains("Cairn-Content-Decision: discard assessments/a1 "))
        // The answer is in the history still.
        #expect(try store.document(at: path, revision: "HEAD~1")?.field("answer") == .string("an answer to the old questions"))
        // The decision is made: a second one finds nothing held.
        #expect(throws: CairnError.self) { try store.decide(.discard, collection: "assessments", item: "a1") }
        let synced = try store.sync(options)
        #expect(!synced.held)
        #expect(try serverMain() == synced.head?.hex)
        // The answer created and discarded on the way is the discard the commit records, not
        // an append-only document deleted: the history verifies, here and on the server.
        #expect(try store.verify().findings.isEmpty)
        #expect(try Store.verifyRepository(at: server + "/u1.git").findings.isEmpty)
        // Downloaded again, a new answer pins the new version and goes.
        try download("a1")
        try store.put(response("a1", "a new answer"), at: try DocumentPath("users/u1/responses/r2"))
        #expect(try store.sync(options).pins.map(\.state) == [.unchanged])
    }

    @Test func answersToADeletedAssessmentStayFlaggedAndCannotBeSubmitted() throws {
        let (store, _) = try phone()
        let before = try serverMain()
        let path = try DocumentPath("users/u1/responses/r1")
        try store.put(response("a1", "x = 2"), at: path)
        _ = try Server.removeContent(in: server, collection: "assessments", item: "a1")
        let result = try store.sync(options)
        #expect(result.held)
        #expect(result.pins.map(\.state) == [.deleted])
        #expect(result.pins.first?.line(for: path).hasSuffix("was deleted on the server; the answers stay here") == true)
        #expect(try serverMain() == before)
        // A write waiting for the next checkpoint stays waiting: the refusal records nothing.
        try store.put(response("a1", "x = 3"), at: try DocumentPath("users/u1/responses/r2"))
        let head = try store.history().first?.checkpoint.id
        do {
            try store.decide(.submitAnyway, collection: "assessments", item: "a1")
            Issue.record("submitting answers to a deleted assessment was accepted")
        } catch {
            #expect(error.code == .refused)
            #expect(error.message.contains("was deleted on the server"))
        }
        #expect(try store.history().first?.checkpoint.id == head, "a refused decision made a checkpoint")
        #expect(try store.status().pending.count == 1)
        #expect(try store.sync(options).held, "still held, nothing pushed")
        #expect(try serverMain() == before)
        #expect(try store.document(at: path) != nil, "the answer is kept")
    }
}
