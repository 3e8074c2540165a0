import CairnCore
import CairnMerge

extension HistorySite {
    /// A document: as it is at the last checkpoint, its numbers over its checkpoints, where
    /// each value comes from, and each checkpoint that changed it, value by value, with what
    /// merges decided about it.
    func documentPage(_ store: Store, path: DocumentPath) throws(CairnError) -> HTMLPage {
        let history = try store.history(of: path, limit: limit)
        // A document the last checkpoint holds has a history (the checkpoint that added it).
        let current = history.isEmpty ? nil : try store.document(at: path, revision: "HEAD")
        guard current != nil || !history.isEmpty else {
            throw CairnError(.notFound, "there is no document at \(path) in any checkpoint of \(store.uid)")
        }
        var body = ""
        if let collection = path.segments.count > 2 ? path.collection : nil {
            body += "<p>In <a href=\"\(collectionLink(store, collection))\">\(HTML.escape(collection.description))</a>.</p>"
        }

        // Oldest first, for the plots.
        var versions: [(label: String, value: JSONValue)] = []
        for entry in history.reversed() {
            guard let version = try store.document(at: path, revision: entry.checkpoint.id.hex) else { continue }
            versions.append((label: Self.label(entry.checkpoint) + " · " + Timeline.lane(of: entry.checkpoint), value: version))
        }
        body += plotsSection(
            "Over time", "One point per checkpoint that changed the document, oldest first.",
            plots: Measures.plots(of: versions, joined: true))

        if let current {
            body += "<h2>At the last checkpoint</h2><pre class=\"document\">\(HTML.escape(current.canonicalText))</pre>"
            body += "<h2>Where each value comes from</h2>" + provenanceTable(try store.blame(path), in: store)
        } else {
            body += "<p class=\"absent\">Removed: the last checkpoint holds no document at \(HTML.escape(path.description)).</p>"
        }

        body += "<h2>History</h2>"
        if history.count == limit { body += "<p class=\"muted\">The newest \(limit) checkpoints that changed it.</p>" }
        for entry in history {
            body += "<div class=\"entry\"><p>\(describe(entry.checkpoint, in: store)) \(HTML.escape(entry.checkpoint.summary))</p>"
            let records = try store.conflicts(at: entry.checkpoint.id.hex).flatMap(\.records).filter { $0.document == path }
            if !records.isEmpty { body += decisionsTable(records, in: store, showDocument: false) }
            // The document's own changes, not those of documents below it.
            body += diffList(
                try store.diff(in: entry.checkpoint, under: path.description).filter { $0.path == path }, in: store, named: false)
            body += "</div>"
        }
        return HTMLPage(title: path.description, trail: trail(store.uid) + [(path.description, nil)], body: body)
    }

    /// Each value of a document with the checkpoint and device that last set it, and the merge
    /// decision that kept it, where one did.
    func provenanceTable(_ values: [ValueProvenance], in store: Store) -> String {
        var table = "<table class=\"provenance\"><tr><th>value</th><th></th><th>set by</th><th>decided by</th></tr>"
        for value in values {
            table += "<tr><td>\(HTML.pointer(value.pointer))</td><td>\(HTML.value(value.value, limit: 80))</td>"
            table += "<td>\(describe(value.checkpoint, in: store))</td><td>"
            if let decision = value.decision {
                table +=
                    "\(HTML.escape(decision.record.policy.description)) in "
                    + "<a href=\"\(checkpointLink(store, decision.merge.id))\"><code>\(decision.merge.id.short)</code></a>"
                if let note = decision.record.note { table += " <span class=\"note\">\(HTML.escape(note))</span>" }
            }
            table += "</td></tr>"
        }
        return table + "</table>"
    }
}
