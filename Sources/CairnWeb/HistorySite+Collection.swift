import CairnCore
import CairnMerge

extension HistorySite {
    /// A collection: how many documents it held after each checkpoint that changed it (on
    /// the branch's own line, first parents only, so a document a merge brought in counts
    /// once), each number of its documents plotted one point per document in the order they
    /// were added (an exam's attempts and their scores), and its documents.
    func collectionPage(_ store: Store, path: CollectionPath) throws(CairnError) -> HTMLPage {
        let documents = try store.documentPaths().filter { $0.collection == path }
        let history = try store.history(limit: limit * 10)
        var diffs: [CheckpointID: [DocumentDiff]] = [:]
        func changes(_ checkpoint: Checkpoint) throws(CairnError) -> [DocumentDiff] {
            if let known = diffs[checkpoint.id] { return known }
            let found = try store.diff(in: checkpoint, under: path.description).filter { $0.path.collection == path }
            diffs[checkpoint.id] = found
            return found
        }
        // When each document came: the oldest checkpoint of any device that added it.
        var added: [DocumentPath: Checkpoint] = [:]
        for entry in history.reversed() where entry.checkpoint.parents.count < 2 {
            for diff in try changes(entry.checkpoint) where diff.kind == .added && added[diff.path] == nil {
                added[diff.path] = entry.checkpoint
            }
        }
        // The count along the first parents, oldest first.
        let byID = Dictionary(history.map { ($0.checkpoint.id, $0.checkpoint) }, uniquingKeysWith: { first, _ in first })
        var line: [Checkpoint] = []
        var next = history.first?.checkpoint
        while let checkpoint = next {
            line.append(checkpoint)
            next = checkpoint.parents.first.flatMap { byID[$0] }
        }
        var counts: [Plot.Point] = []
        var count = 0
        for checkpoint in line.reversed() {
            let found = try changes(checkpoint)
            guard !found.isEmpty else { continue }
            for diff in found {
                switch diff.kind {
                case .added:
                    count += 1
                    if added[diff.path] == nil { added[diff.path] = checkpoint }
                case .removed: count -= 1
                case .changed: break
                }
            }
            counts.append(Plot.Point(value: Double(count), label: Self.label(checkpoint)))
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
        var plots: [Plot] = []
        if counts.count > 1 { plots.append(Plot(title: "documents in \(path)", points: counts)) }
        plots += Measures.plots(of: values, joined: false, limit: 6)

        var body = "<p>\(documents.count) document\(documents.count == 1 ? "" : "s") at the last checkpoint.</p>"
        body += plotsSection(
            "Plots",
            "The count after each checkpoint that changed the collection; then one point per document, in the order they were added.",
            plots: plots)
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
