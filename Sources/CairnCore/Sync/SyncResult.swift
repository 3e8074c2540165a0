import CairnMerge

/// What a sync did.
public struct SyncResult: Sendable {
    /// How the remote's work came in.
    public enum Integration: Sendable, Hashable {
        /// The remote had nothing this store lacked.
        case upToDate
        /// The store had nothing the remote lacked, and moved to the remote's commit.
        case fastForward
        /// Both had new checkpoints: a merge commit joins them.
        case merged(CheckpointID)
    }

    /// The checkpoint of pending writes made first.
    public var checkpoint: CheckpointResult
    /// Whether the store fast-forwarded, merged, or had nothing to take in.
    public var integration: Integration = .upToDate
    /// What the policies decided in the merge.
    public var conflicts: [ConflictRecord] = []
    /// Derived fields that other writers left wrong in what the sync brought in, merged or
    /// pushed, and that it computed again (in a checkpoint of their own, or in the
    /// checkpoint of pending writes: what another git tool committed or left in the store).
    public var corrections: [DerivedFieldMismatch] = []
    /// The files of the working tree the sync changed (the remote's changes), sorted.
    public var changedFiles: [String] = []
    /// Asset fields the sync cleared: their assets were deleted (on another device, while
    /// this one kept or brought back a document pointing to them) and no one holds them.
    public var clearedAssets: [(document: DocumentPath, field: String)] = []
    /// Checkpoints the push sent (0 when the remote had them all).
    public var pushedCommits = 0
    /// How many rounds of fetch, merge and push it took (more than 1 when another device
    /// pushed first).
    public var rounds = 1
    /// The checkpoint the store is on after the sync (the remote's too, unless held).
    public var head: CheckpointID?
    /// What the servers said of the content the pushed documents are pinned to, one check per
    /// (collection, item, pinned version).
    public var pins: [PinCheck] = []

    /// Whether documents pinned to changed or deleted content held the push back: the sync
    /// merged, and pushed nothing (``Store/decide(_:collection:item:)`` lets them go).
    public var held: Bool { pins.contains(where: \.held) }

    /// The held documents, each with its check, sorted by path.
    public var heldDocuments: [(document: DocumentPath, check: PinCheck)] {
        pins.filter(\.held).flatMap { check in check.documents.map { ($0, check) } }.sorted { $0.document < $1.document }
    }

    /// One line for people: what came in, what went out.
    public var summary: String { summary(conflictsShownBy: nil) }

    /// One line for people, where the count of conflicts decided is followed by what shows
    /// them, in parentheses (a program's command for them: `cairn conflicts`).
    public func summary(conflictsShownBy shownBy: String?) -> String {
        var parts: [String] = []
        switch integration {
        case .upToDate: break
        case .fastForward: parts.append("fast-forwarded, \(Self.documents(changedFiles.count)) changed")
        case .merged(let id):
            let shown = shownBy.map { " (\($0))" } ?? ""
            let decided = conflicts.isEmpty ? "" : ", \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") decided\(shown)"
            parts.append("merged \(id.short), \(Self.documents(changedFiles.count)) changed\(decided)")
        }
        if pushedCommits > 0 { parts.append("pushed \(pushedCommits) checkpoint\(pushedCommits == 1 ? "" : "s")") }
        if held {
            let count = heldDocuments.count
            parts.append("nothing pushed: \(count) document\(count == 1 ? "" : "s") pinned to content that changed on the server")
        }
        if parts.isEmpty { return "Already in sync at \(head?.short ?? "-")" }
        return "Synced at \(head?.short ?? "-"): " + parts.joined(separator: "; ")
    }

    private static func documents(_ count: Int) -> String {
        "\(count) file\(count == 1 ? "" : "s")"
    }
}
