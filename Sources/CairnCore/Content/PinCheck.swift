import CairnMerge

/// What a sync found when it asked the server about one version of an item that documents it
/// would push are pinned to.
public struct PinCheck: Sendable, Hashable {
    /// The server's answer.
    public enum State: String, Sendable, Hashable {
        /// The server's latest version is the pinned one: the documents go as they are.
        case unchanged
        /// The server holds a newer version: the documents wait for a decision.
        case updated
        /// The server has no such item any more: the documents stay here, flagged.
        case deleted
    }

    /// The content's collection (`assessments`).
    public var collection: String
    /// The item (`a1`).
    public var item: String
    /// The commit the documents are pinned to.
    public var pinnedVersion: String
    /// Its number (commits on the item's `main` up to it), when the downloaded item holds it.
    public var pinnedNumber: Int?
    public var state: State
    /// The server's `main` (nil when deleted).
    public var serverVersion: String?
    /// Its number, when the downloaded item holds it.
    public var serverNumber: Int?
    /// Whether a checkpoint among those the sync pushes decided to submit them anyway.
    public var submittedAnyway: Bool
    /// The documents pinned to this version that the sync would push, sorted.
    public var documents: [DocumentPath]

    public init(
        collection: String, item: String, pinnedVersion: String, pinnedNumber: Int? = nil, state: State,
        serverVersion: String? = nil, serverNumber: Int? = nil, submittedAnyway: Bool = false, documents: [DocumentPath]
    ) {
        self.collection = collection
        self.item = item
        self.pinnedVersion = pinnedVersion
        self.pinnedNumber = pinnedNumber
        self.state = state
        self.serverVersion = serverVersion
        self.serverNumber = serverNumber
        self.submittedAnyway = submittedAnyway
        self.documents = documents
    }

    /// Whether the documents stop the push: the item was deleted, or it changed and nobody
    /// decided to submit them anyway.
    public var held: Bool {
        state == .deleted || (state == .updated && !submittedAnyway)
    }

    /// How a version is shown: `version 3 (1a2b3c4)`, or the short id alone when its number is
    /// not known here.
    public static func versionText(_ version: String, number: Int?) -> String {
        let short = String(version.prefix(7))
        return number.map { "version \($0) (\(short))" } ?? "version \(short)"
    }

    /// What happened to the item, for people: `updated to version 4 (9f8e7d6)`, `deleted`.
    public var serverText: String {
        switch state {
        case .unchanged: "unchanged"
        case .updated:
            "updated to " + Self.versionText(serverVersion ?? "", number: serverNumber) + (submittedAnyway ? ", submitted anyway" : "")
        case .deleted: "deleted on the server"
        }
    }

    /// One line for a held document:
    /// `users/u1/pending_responses/r1: assessments/a1 version 3 (1a2b3c4) was updated to version 4 (9f8e7d6)`.
    public func line(for document: DocumentPath) -> String {
        "\(document): \(collection)/\(item) " + Self.versionText(pinnedVersion, number: pinnedNumber)
            + (state == .deleted ? " was deleted on the server; the answers stay here" : " was " + serverText)
    }
}
