import CairnCore
import CairnMerge

extension HistorySite {
    /// A collection: how many documents it held over the checkpoints that changed it, each
    /// number of its documents plotted one point per document in the order they were added
    /// (an exam's attempts and their scores), and its documents.
    func collectionPage(_ store: Store, path: CollectionPath) throws(CairnError) -> HTMLPage {
        let documents = try store.documentPaths().filter { $0.collection == path }
        // Walked oldest first: when each document came, and the count after each change.
        var added: [DocumentPath: Checkpoint] = [:]
        var counts: [Plot.Point] = []
        var count = 0
        let history = try store.history(limit: limit * 10)
        for entry in history.reversed() {
            let diffs = try store.diff(in: entry.checkpoint, under: path.description).filter { $0.path.collection == path }
            guard !diffs.isEmpty else { continue }
            for diff in diffs {
                switch diff.kind {
                case .added:
                    count += 1
                    if added[diff.path] == nil { added[diff.path] = entry.checkpoint }
                case .removed: count -= 1
                case .changed: break
                }
            }
            counts.append(Plot.Point(value: Double(count), label: "\(entry.checkpoint.id.short) · \(ISO8601Stamp.text(seconds: entry.checkpoint.time, separator: " "))"))
        }
        guard !documents.isEmpty || !counts.isEmpty else {
            throw CairnError(.notFound, "there is no document in \(path) in any checkpoint of \(store.uid)")
        }
        // Documents in the order they came (those older than the walk first, by path).
        let ordered = documents.sorted { left, right in
            switch (added[left], added[right]) {
            case (nil, nil): left < right
            case (nil, _): true
            case (_, nil): false
            case let (l?, r?): l.time != r.time ? l.time < r.time : left < right
            }
        }
        var values: [(label: String, value: JSONValue)] = []
        for document in ordered {
            guard let value = try store.document(at: document, revision: "HEAD") else { continue }
            values.append((label: document.id, value: value))
        }
        let maps = Measures.maps(in: values.map(\.value))
        let series = values.map { (label: $0.label, measures: Measures.of($0.value, maps: maps)) }
        var plots: [Plot] = []
        if counts.count > 1 { plots.append(Plot(title: "documents in \(path)", points: counts)) }
        plots += Measures.plots(series, joined: false, limit: 6)

        var body = "<p>\(documents.count) document\(documents.count == 1 ? "" : "s") at the last checkpoint.</p>"
        if !plots.isEmpty {
            body += "<h2>Plots</h2><p class=\"muted\">The count after each checkpoint that changed the collection; then one point per document, in the order they were added.</p>"
            body += "<div class=\"plots\">" + plots.map(\.figure).joined() + "</div>"
        }
        body += "<h2>Documents</h2><ul>"
        for document in ordered {
            body += "<li class=\"doc\"><a href=\"\(documentLink(store, document))\">\(HTML.escape(document.id))</a>"
            if let checkpoint = added[document] { body += " <span class=\"muted\">added in</span> " + describe(checkpoint, in: store) }
            body += "</li>"
        }
        body += "</ul>"
        return HTMLPage(title: path.description, trail: trail(store.uid) + [(path.description, nil)], body: body)
    }
}
