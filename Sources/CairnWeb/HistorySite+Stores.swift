import CairnCore
import CairnMerge

extension HistorySite {
    /// The home's stores, each with its documents and last checkpoint.
    func homePage() -> HTMLPage {
        var rows = ""
        for uid in home.users() {
            do {
                let store = try home.openStore(uid)
                let last = try store.history(limit: 1).first
                rows += "<tr><td><a href=\"\(storeLink(uid))\">\(HTML.escape(uid))</a></td><td>\(try store.documentPaths().count)</td>"
                rows +=
                    "<td>\(last.map { describe($0.checkpoint, in: store) + " " + HTML.escape($0.checkpoint.summary) } ?? "<span class=\"absent\">none yet</span>")</td></tr>"
            } catch {
                rows += "<tr><td>\(HTML.escape(uid))</td><td colspan=\"2\" class=\"failure\">\(HTML.escape("\(error)"))</td></tr>"
            }
        }
        let body =
            rows.isEmpty
            ? "<p>There are no stores in \(HTML.escape(home.root)) yet: <code>cairn init UID</code> makes one.</p>"
            : "<table><tr><th>user</th><th>documents</th><th>last checkpoint</th></tr>\(rows)</table>"
        return HTMLPage(title: "Stores in \(home.root)", trail: [("stores", nil)], body: body)
    }

    /// A store's timeline and documents.
    func storePage(_ store: Store) throws(CairnError) -> HTMLPage {
        let history = try store.history(limit: limit + 1)
        let shown = history.prefix(limit).map(\.checkpoint)
        let timeline = Timeline(checkpoints: Array(shown)) { checkpointLink(store, $0.id) }
        var body = "<h2>Timeline</h2>"
        if shown.isEmpty {
            body += "<p class=\"absent\">No checkpoint yet.</p>"
        } else {
            let merges = shown.filter { $0.parents.count > 1 }.count
            body +=
                "<p>\(shown.count) checkpoint\(shown.count == 1 ? "" : "s")\(history.count > limit ? " (the newest \(limit))" : ""), "
                + "\(merges) merge\(merges == 1 ? "" : "s"), from \(timeline.lanes.count) device\(timeline.lanes.count == 1 ? "" : "s"): "
                + "a dot per checkpoint in its device's lane, a diamond per merge.</p>"
            body += "<div class=\"timeline\">\(timeline.svg)</div>"
        }
        let documents = try store.documentPaths()
        body += "<h2>Documents</h2>"
        if documents.isEmpty {
            body += "<p class=\"absent\">No document checkpointed yet.</p>"
        }
        var collection: CollectionPath?
        for path in documents {
            if path.segments.count > 2, path.collection != collection {
                if collection != nil { body += "</ul>" }
                collection = path.collection
                body += "<h3><a href=\"\(collectionLink(store, path.collection))\">\(HTML.escape(path.collection.description))</a></h3><ul>"
            }
            let name = path.segments.count > 2 ? path.id : path.description
            body += "<li class=\"doc\"><a href=\"\(documentLink(store, path))\">\(HTML.escape(name))</a></li>"
        }
        if collection != nil { body += "</ul>" }
        return HTMLPage(title: "Store of \(store.uid)", trail: [("stores", "/"), (store.uid, nil)], body: body)
    }
}
