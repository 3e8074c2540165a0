import CairnCore
import CairnMerge

/// The pages of the history view, by the path of their URL, drawn from the stores of one
/// home. Every page reads the store afresh, through its own handle, and writes nothing:
///
/// - `/`: the home's stores;
/// - `/stores/UID`: a store's timeline of checkpoints and merges per device, and its documents;
/// - `/stores/UID/checkpoints/ID`: what a checkpoint changed, value by value, and what its
///   merge decided (kept and replaced values, the policy, notes such as a stamp from the future);
/// - `/stores/UID/documents/PATH`: a document as it is, plots of its values over its
///   checkpoints, where each value comes from, and its history with field-level diffs;
/// - `/stores/UID/collections/PATH`: a collection's documents, and plots of their numbers
///   (one point per document, in the order they were added).
///
/// Path segments are percent-encoded in links, so any id a store allows has its page.
public struct HistorySite: Sendable {
    public let home: Home
    /// How many checkpoints a timeline or a history shows at most.
    public var limit = 300

    public init(home: Home) {
        self.home = home
    }

    /// The page at `path` (the URL's path, without its query), with its HTTP status.
    public func page(at path: String) -> (status: Int, html: String) {
        let page = route(path)
        return (page.status, page.rendered)
    }

    func route(_ path: String) -> HTMLPage {
        let raw = path.split(separator: "/", omittingEmptySubsequences: true)
        let segments = raw.compactMap(HTML.decodeSegment)
        guard segments.count == raw.count else {
            return .failure("the address \(path) is not valid percent-encoded UTF-8", status: 400)
        }
        // Each segment is one name: a `/` in one (`%2F`) would make one address two.
        guard !segments.contains(where: { $0.contains("/") }) else {
            return .failure("the address \(path) has a / inside a segment (%2F); an id holds none", status: 400)
        }
        if segments.isEmpty { return homePage() }
        guard segments[0] == "stores", segments.count >= 2 else {
            return .failure("there is no page at \(path); the stores are listed at /", status: 404)
        }
        let uid = segments[1]
        do {
            let store = try home.openStore(uid)
            let rest = Array(segments.dropFirst(2))
            switch (rest.first, rest.count) {
            case (nil, _):
                return try storePage(store)
            case ("checkpoints", 2):
                return try checkpointPage(store, revision: rest[1])
            case ("documents", 3...):
                return try documentPage(store, path: try DocumentPath(rest.dropFirst().joined(separator: "/")))
            case ("collections", 2...):
                return try collectionPage(store, path: try CollectionPath(rest.dropFirst().joined(separator: "/")))
            default:
                return .failure(
                    "there is no page at \(path); the store's page is /stores/\(uid)", status: 404,
                    trail: trail(uid))
            }
        } catch let error as CairnError {
            let status =
                switch error.code {
                case .notFound: 404
                case .invalidInput: 400
                case .authentication: 403
                default: 500
                }
            return .failure(error.description, status: status, trail: segments.count > 2 ? trail(uid) : [("stores", "/")])
        } catch {
            return .failure("\(error)", status: 400, trail: trail(uid))
        }
    }

    // MARK: Links

    /// The path of a store's page: `/stores/UID`, the uid percent-encoded.
    public static func storePath(_ uid: String) -> String { "/stores/" + HTML.segment(uid) }

    func storeLink(_ uid: String) -> String { Self.storePath(uid) }

    func checkpointLink(_ store: Store, _ id: CheckpointID) -> String {
        storeLink(store.uid) + "/checkpoints/" + id.hex
    }

    func documentLink(_ store: Store, _ path: DocumentPath) -> String {
        storeLink(store.uid) + "/documents/" + path.segments.map(HTML.segment).joined(separator: "/")
    }

    func collectionLink(_ store: Store, _ path: CollectionPath) -> String {
        storeLink(store.uid) + "/collections/" + path.segments.map(HTML.segment).joined(separator: "/")
    }

    /// The trail of a page inside a store: the stores, then the store.
    func trail(_ uid: String) -> [(text: String, href: String?)] {
        [("stores", "/"), (uid, storeLink(uid))]
    }

    /// A checkpoint as a link with its id, time and device.
    func describe(_ checkpoint: Checkpoint, in store: Store) -> String {
        "<a href=\"\(checkpointLink(store, checkpoint.id))\"><code>\(checkpoint.id.short)</code></a> "
            + "<span class=\"muted\">\(Self.time(checkpoint)) · \(HTML.escape(Timeline.lane(of: checkpoint)))</span>"
    }

    /// When a checkpoint was made, as people read it: `2026-11-27 12:22:17Z`.
    static func time(_ checkpoint: Checkpoint) -> String {
        ISO8601Stamp.text(seconds: checkpoint.time, separator: " ")
    }

    /// A checkpoint in a plot's tooltip: its short id and time.
    static func label(_ checkpoint: Checkpoint) -> String {
        checkpoint.id.short + " · " + time(checkpoint)
    }

    /// A section of plots with its heading and what a point is; nothing when there is none.
    func plotsSection(_ heading: String, _ explanation: String, plots: [Plot]) -> String {
        guard !plots.isEmpty else { return "" }
        return "<h2>\(HTML.escape(heading))</h2><p class=\"muted\">\(HTML.escape(explanation))</p>"
            + "<div class=\"plots\">" + plots.map(\.figure).joined() + "</div>"
    }
}
