import CairnCore
import CairnMerge

/// A store's checkpoints drawn as inline SVG, newest at the top: one lane per device (by the
/// name its commits record), a dot per checkpoint in its device's lane, a diamond per merge,
/// a line from each to its parents, and beside each row its id (a link to its page), time and
/// summary.
struct Timeline {
    var checkpoints: [Checkpoint]
    /// The link of a checkpoint's page.
    var link: (Checkpoint) -> String

    private static let laneWidth = 96.0
    private static let rowHeight = 22.0
    private static let header = 34.0

    /// The device a checkpoint's lane is for: its device id (each store copy has its own),
    /// else its device name, else none (a commit made by hand or by another tool).
    static func laneKey(of checkpoint: Checkpoint) -> String {
        checkpoint.device ?? checkpoint.deviceName.map { "name " + $0 } ?? ""
    }

    /// How a checkpoint's device reads: the name its commit records, else the start of its
    /// device id, else "(no device)".
    static func lane(of checkpoint: Checkpoint) -> String {
        if let name = checkpoint.deviceName { return name }
        if let device = checkpoint.device { return "device " + String(device.prefix(8)) }
        return "(no device)"
    }

    /// The lanes, newest first, each with its label: the device's name, and the start of its
    /// id too where two devices go by the same name (three copies on one host).
    var lanes: [(key: String, label: String)] {
        var keys: [String] = []
        var labels: [String: String] = [:]
        for checkpoint in checkpoints where labels[Self.laneKey(of: checkpoint)] == nil {
            keys.append(Self.laneKey(of: checkpoint))
            labels[Self.laneKey(of: checkpoint)] = Self.lane(of: checkpoint)
        }
        var named: [String: Int] = [:]
        for key in keys { named[labels[key]!, default: 0] += 1 }
        return keys.map { key in
            let label = labels[key]!
            guard named[label]! > 1, key.count >= 8, !key.hasPrefix("name ") else { return (key, label) }
            return (key, label + " " + String(key.prefix(6)))
        }
    }

    var svg: String {
        let lanes = lanes
        let laneIndex = Dictionary(uniqueKeysWithValues: lanes.enumerated().map { ($1.key, $0) })
        let rowIndex = Dictionary(checkpoints.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        func x(_ checkpoint: Checkpoint) -> Double { Self.laneWidth * (Double(laneIndex[Self.laneKey(of: checkpoint)] ?? 0) + 0.5) }
        func y(_ row: Int) -> Double { Self.header + Self.rowHeight * (Double(row) + 0.5) }
        let textX = Self.laneWidth * Double(lanes.count) + 10
        let height = Self.header + Self.rowHeight * Double(checkpoints.count) + 6
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"\(Plot.number(textX + 960))\" height=\"\(Plot.number(height))\">"
        for (index, lane) in lanes.enumerated() {
            let centre = Self.laneWidth * (Double(index) + 0.5)
            let shown = lane.label.count > 15 ? String(lane.label.prefix(14)) + "…" : lane.label
            svg +=
                "<text class=\"lane\" x=\"\(Plot.number(centre))\" y=\"14\" text-anchor=\"middle\" font-weight=\"600\"><title>\(HTML.escape(lane.label))</title>\(HTML.escape(shown))</text>"
            svg +=
                "<line x1=\"\(Plot.number(centre))\" y1=\"22\" x2=\"\(Plot.number(centre))\" y2=\"\(Plot.number(height))\" stroke=\"#eee\"/>"
        }
        // Edges first, so the dots sit on top.
        for (row, checkpoint) in checkpoints.enumerated() {
            for parent in checkpoint.parents {
                guard let parentRow = rowIndex[parent] else { continue }
                svg +=
                    "<line x1=\"\(Plot.number(x(checkpoint)))\" y1=\"\(Plot.number(y(row)))\" x2=\"\(Plot.number(x(checkpoints[parentRow])))\" y2=\"\(Plot.number(y(parentRow)))\" stroke=\"#9aa7b4\"/>"
            }
        }
        for (row, checkpoint) in checkpoints.enumerated() {
            let (cx, cy) = (Plot.number(x(checkpoint)), Plot.number(y(row)))
            let tip = "<title>\(HTML.escape(checkpoint.id.short + " · " + Self.lane(of: checkpoint) + " · " + checkpoint.summary))</title>"
            if checkpoint.parents.count > 1 {
                svg +=
                    "<rect class=\"merge\" x=\"\(Plot.number(x(checkpoint) - 5))\" y=\"\(Plot.number(y(row) - 5))\" width=\"10\" height=\"10\" fill=\"#d9822b\" transform=\"rotate(45 \(cx) \(cy))\">\(tip)</rect>"
            } else {
                svg += "<circle class=\"checkpoint\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"5\" fill=\"#1f5fa8\">\(tip)</circle>"
            }
            let summary = checkpoint.summary.count > 120 ? String(checkpoint.summary.prefix(119)) + "…" : checkpoint.summary
            svg +=
                "<a href=\"\(HTML.escape(link(checkpoint)))\"><text x=\"\(Plot.number(textX))\" y=\"\(Plot.number(y(row) + 4))\" font-family=\"monospace\" fill=\"#1f5fa8\">\(checkpoint.id.short)</text></a>"
            svg +=
                "<text x=\"\(Plot.number(textX + 70))\" y=\"\(Plot.number(y(row) + 4))\" fill=\"#666\">\(HistorySite.time(checkpoint))</text>"
            svg += "<text x=\"\(Plot.number(textX + 210))\" y=\"\(Plot.number(y(row) + 4))\">\(HTML.escape(summary))</text>"
        }
        return svg + "</svg>"
    }
}
