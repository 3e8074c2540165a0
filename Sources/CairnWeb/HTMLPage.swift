/// One page of the history view: a title, a trail of links back up, and its body, rendered
/// with the one style sheet inline. Nothing on a page is fetched from anywhere else: styles
/// are in the page, plots are inline SVG, and the server's Content-Security-Policy forbids
/// any other source.
struct HTMLPage {
    var title: String
    /// Links back up, each a (text, href), the last the page itself (no link).
    var trail: [(text: String, href: String?)]
    /// HTML, escaped where it holds data.
    var body: String
    /// The HTTP status the page goes out with (a page that says what was not found is a 404).
    var status: Int = 200

    var rendered: String {
        let links = trail.map { step in
            step.href.map { "<a href=\"\(HTML.escape($0))\">\(HTML.escape(step.text))</a>" } ?? HTML.escape(step.text)
        }.joined(separator: " › ")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · cairn</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <nav class="trail">\(links)</nav>
            <h1>\(HTML.escape(title))</h1>
            \(body)
            </body>
            </html>

            """
    }

    /// A page saying what went wrong, in the one line the error carries.
    static func failure(_ message: String, status: Int, trail: [(text: String, href: String?)] = [("stores", "/")]) -> HTMLPage {
        HTMLPage(
            title: status == 404 ? "Not found" : "Cannot show this", trail: trail + [("error", nil)],
            body: "<p class=\"failure\">\(HTML.escape(message))</p>", status: status)
    }

    static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:1.5em 2em;color:#1d2329;background:#fbfbfa}
        h1{font-size:1.4em;margin:.3em 0 .8em}h2{font-size:1.1em;margin:1.6em 0 .5em;border-bottom:1px solid #ddd}h3{font-size:1em;margin:1em 0 .2em}ul{margin:.2em 0}
        a{color:#1f5fa8;text-decoration:none}a:hover{text-decoration:underline}
        code,pre{font:12.5px/1.4 ui-monospace,monospace}pre{background:#f1f1ee;padding:.8em;overflow:auto}
        table{border-collapse:collapse;margin:.4em 0}td,th{padding:.25em .7em;border-bottom:1px solid #e4e4e0;text-align:left;vertical-align:top}
        th{font-weight:600;background:#f1f1ee}.trail{color:#666;font-size:.9em}
        .absent{color:#888;font-style:italic}.note{color:#8a4b00}.failure{color:#a1231b;font-weight:600}
        .kept{background:#e6f4e6}.replaced{background:#fbe9e7}.muted{color:#777}
        .change{margin:.1em 0 .1em 1.2em}.doc{margin-top:.5em}.plots{display:flex;flex-wrap:wrap;gap:1em}
        figure{margin:0;background:#fff;border:1px solid #e4e4e0;padding:.5em}figcaption{font-size:.85em;color:#444}
        svg text{font:11px system-ui,sans-serif}
        """
}
