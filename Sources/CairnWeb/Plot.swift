/// A small plot drawn as inline SVG: values in the order they came (checkpoints of a
/// document, documents of a collection), joined by a line, each point with a tooltip saying
/// when and what.
struct Plot {
    struct Point {
        var value: Double
        /// What the point's tooltip says (a checkpoint, a document).
        var label: String
    }

    var title: String
    var points: [Point]
    /// Whether points are joined (a value over time) or stand alone (one per document).
    var joined = true

    static let width = 360.0
    static let height = 160.0
    private static let margin = (left: 44.0, right: 12.0, top: 10.0, bottom: 22.0)

    var svg: String {
        let values = points.map(\.value)
        guard let low = values.min(), let high = values.max() else { return "" }
        // A flat series still gets a band to sit in.
        let (bottom, top) = low == high ? (low - 1, high + 1) : (min(low, 0 <= low && high <= 1 ? 0 : low), high)
        let plotWidth = Self.width - Self.margin.left - Self.margin.right
        let plotHeight = Self.height - Self.margin.top - Self.margin.bottom
        func x(_ index: Int) -> Double {
            Self.margin.left + (points.count == 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(points.count - 1))
        }
        func y(_ value: Double) -> Double {
            Self.margin.top + plotHeight * (1 - (value - bottom) / (top - bottom))
        }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\">"
        svg += "<title>\(HTML.escape(title))</title>"
        // Axes, with the lowest and highest value.
        svg += line(Self.margin.left, Self.margin.top, Self.margin.left, Self.height - Self.margin.bottom, "#999")
        svg += line(
            Self.margin.left, Self.height - Self.margin.bottom, Self.width - Self.margin.right, Self.height - Self.margin.bottom, "#999")
        svg += text(Self.margin.left - 4, y(top) + 4, Self.number(top), anchor: "end")
        svg += text(Self.margin.left - 4, y(bottom) + 4, Self.number(bottom), anchor: "end")
        svg += text(Self.margin.left, Self.height - 6, "1", anchor: "start")
        svg += text(Self.width - Self.margin.right, Self.height - 6, "\(points.count)", anchor: "end")
        if joined, points.count > 1 {
            let coordinates = points.indices.map { "\(Self.number(x($0))),\(Self.number(y(points[$0].value)))" }
            svg += "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" points=\"\(coordinates.joined(separator: " "))\"/>"
        }
        for (index, point) in points.enumerated() {
            svg += "<circle cx=\"\(Self.number(x(index)))\" cy=\"\(Self.number(y(point.value)))\" r=\"3\" fill=\"#1f5fa8\">"
            svg += "<title>\(HTML.escape(point.label)): \(Self.number(point.value))</title></circle>"
        }
        return svg + "</svg>"
    }

    /// The figure: the plot and its caption.
    var figure: String {
        "<figure class=\"plot\"><figcaption>\(HTML.escape(title))</figcaption>\(svg)</figure>"
    }

    /// A number as short as it reads: an integer without a fraction, else two decimals at
    /// most; past 10^15, as Swift writes a double (`1e+20`).
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        let scaled = (value * 100).rounded() / 100
        return scaled == scaled.rounded() ? String(Int64(scaled)) : String(scaled)
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ colour: String) -> String {
        "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\" stroke=\"\(colour)\"/>"
    }

    private func text(_ x: Double, _ y: Double, _ text: String, anchor: String) -> String {
        "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" text-anchor=\"\(anchor)\" fill=\"#555\">\(HTML.escape(text))</text>"
    }
}
