/// What the user (or the app) decides for progress pinned to a version of an item that the
/// server no longer holds as its latest: submit it as it is, or discard it.
public enum ContentDecision: String, Sendable, Hashable, CaseIterable {
    /// Push the answers although the item changed; refused for a deleted item.
    case submitAnyway = "submit-anyway"
    /// Put every held document back to the remote's version (the answers stay in history).
    case discard

    /// The trailer a decision's checkpoint carries:
    /// `Cairn-Content-Decision: submit-anyway assessments/a1 <pinned commit>`.
    public static let trailer = "Cairn-Content-Decision"

    /// The trailer line for one pinned version of an item.
    public func trailerLine(collection: String, item: String, version: String) -> String {
        "\(Self.trailer): \(rawValue) \(collection)/\(item) \(version)"
    }

    /// The decisions a commit message records: (decision, collection, item, version) per
    /// trailer line.
    static func recorded(in message: String) -> [(decision: ContentDecision, collection: String, item: String, version: String)] {
        message.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(trailer + ": ") else { return nil }
            let words = line.dropFirst(trailer.count + 2).split(separator: " ")
            guard words.count == 3, let decision = ContentDecision(rawValue: String(words[0])),
                let slash = words[1].firstIndex(of: "/")
            else { return nil }
            return (decision, String(words[1][..<slash]), String(words[1][words[1].index(after: slash)...]), String(words[2]))
        }
    }
}
