import CairnCore
import CairnMerge

extension HistorySite {
    /// A checkpoint: who made it and when, what its merge decided, and what it changed.
    func checkpointPage(_ store: Store, revision: String) throws(CairnError) -> HTMLPage {
        let checkpoint = try store.checkpoint(revision)
        var body = "<table>"
        body += "<tr><th>checkpoint</th><td><code>\(checkpoint.id.hex)</code></td></tr>"
        body += "<tr><th>time</th><td>\(Self.time(checkpoint))</td></tr>"
        body +=
            "<tr><th>device</th><td>\(HTML.escape(Timeline.lane(of: checkpoint)))\(checkpoint.device.map { " <span class=\"muted\">(\(HTML.escape($0)))</span>" } ?? "")</td></tr>"
        body += "<tr><th>author</th><td>\(HTML.escape(checkpoint.author))</td></tr>"
        let parents = checkpoint.parents.map { "<a href=\"\(checkpointLink(store, $0))\"><code>\($0.short)</code></a>" }
        body += "<tr><th>parents</th><td>\(parents.isEmpty ? "none: the first checkpoint" : parents.joined(separator: ", "))</td></tr>"
        body += "</table>"

        let records = try store.conflicts(at: checkpoint.id.hex).flatMap(\.records)
        if checkpoint.parents.count > 1 || !records.isEmpty {
            body += "<h2>Decisions</h2>"
            body +=
                records.isEmpty
                ? "<p>The two sides never changed the same value: nothing had to be decided.</p>"
                : decisionsTable(records, in: store)
        }

        let diffs = try store.diff(in: checkpoint)
        body += "<h2>Changes</h2>"
        if checkpoint.parents.count > 1, let first = checkpoint.parents.first {
            body += "<p class=\"muted\">What the merge brought into <code>\(first.short)</code>, its first parent.</p>"
        }
        body += diffs.isEmpty ? "<p class=\"absent\">No document changed.</p>" : diffList(diffs, in: store)
        // The message last: its trailers say again, for git's tools, what the page shows.
        body +=
            "<h2>Message</h2><details><summary>The commit message, with its trailers</summary><pre>\(HTML.escape(checkpoint.message))</pre></details>"
        return HTMLPage(
            title: "Checkpoint \(checkpoint.id.short): \(checkpoint.summary)",
            trail: trail(store.uid) + [(checkpoint.id.short, nil)], body: body)
    }

    /// A merge's decisions, one row each: the document and value, the policy, the value kept,
    /// the value replaced, and what else to know (a stamp from the future).
    func decisionsTable(_ records: [ConflictRecord], in store: Store, showDocument: Bool = true) -> String {
        var table =
            "<table class=\"decisions\"><tr>\(showDocument ? "<th>document</th>" : "")<th>value</th><th>policy</th><th>kept</th><th>replaced</th><th>note</th></tr>"
        for record in records {
            table += "<tr>"
            if showDocument {
                table +=
                    "<td>\(record.document.map { "<a href=\"\(documentLink(store, $0))\">\(HTML.escape($0.description))</a>" } ?? "")</td>"
            }
            table += "<td>\(HTML.pointer(record.pointer))</td>"
            table += "<td>\(HTML.escape(record.policy.description))</td>"
            let (kept, replaced) = Self.differing(record.kept, record.replaced)
            table += "<td class=\"kept\">\(HTML.value(kept))</td><td class=\"replaced\">\(HTML.value(replaced))</td>"
            table += "<td class=\"note\">\(record.note.map(HTML.escape) ?? "")</td></tr>"
        }
        return table + "</table>"
    }

    /// Two objects cut to the fields where they differ (what was decided); other values as
    /// they are.
    static func differing(_ kept: JSONValue?, _ replaced: JSONValue?) -> (JSONValue?, JSONValue?) {
        guard case .object(let keptFields)? = kept, case .object(let replacedFields)? = replaced else { return (kept, replaced) }
        let differs = { (key: String) in !JSONValue.same(keptFields[key], replacedFields[key]) }
        return (.object(keptFields.filter { differs($0.key) }), .object(replacedFields.filter { differs($0.key) }))
    }

    /// Documents that differ, each with its values that changed, one line each.
    /// On a document's own page (`named` false) only the values are listed.
    func diffList(_ diffs: [DocumentDiff], in store: Store, named: Bool = true) -> String {
        var list = ""
        for diff in diffs {
            list += "<div class=\"diff\">"
            if named {
                list +=
                    "<strong>\(diff.kind.rawValue)</strong> <a href=\"\(documentLink(store, diff.path))\">\(HTML.escape(diff.path.description))</a>"
            }
            for change in diff.changes {
                list +=
                    "<div class=\"change\">\(HTML.pointer(change.pointer)): "
                    + "\(HTML.value(change.before)) → \(HTML.value(change.after))</div>"
            }
            list += "</div>"
        }
        return list
    }
}
