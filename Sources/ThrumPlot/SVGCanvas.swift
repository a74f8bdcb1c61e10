import Foundation

/// A tiny SVG writer: just the elements the plots use, with numbers rounded for small files.
struct SVGCanvas {
    let width: Double
    let height: Double
    private var body: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil, opacity: Double = 1,
        title: String? = nil
    ) {
        var attributes =
            "x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(width, 0)))\" height=\"\(n(max(height, 0)))\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        if opacity < 1 { attributes += " fill-opacity=\"\(n(opacity))\"" }
        body.append(element("rect", attributes, title: title))
    }

    mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dash: String? = nil
    ) {
        var attributes =
            "x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\""
        if let dash { attributes += " stroke-dasharray=\"\(dash)\"" }
        body.append("<line \(attributes)/>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 1.5, title: String? = nil) {
        guard !points.isEmpty else { return }
        let list = points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
        body.append(
            element(
                "polyline",
                "points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\" stroke-linejoin=\"round\"",
                title: title))
    }

    mutating func polygon(_ points: [(Double, Double)], fill: String, opacity: Double = 1, stroke: String? = nil) {
        guard !points.isEmpty else { return }
        let list = points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
        var attributes = "points=\"\(list)\" fill=\"\(fill)\" fill-opacity=\"\(n(opacity))\""
        if let stroke { attributes += " stroke=\"\(stroke)\" stroke-width=\"1\"" }
        body.append("<polygon \(attributes)/>")
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: String, title: String? = nil) {
        body.append(
            element("circle", "cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(radius))\" fill=\"\(fill)\"", title: title))
    }

    enum Anchor: String { case start, middle, end }

    mutating func text(
        _ text: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start, fill: String = "#343a40",
        bold: Bool = false
    ) {
        let weight = bold ? " font-weight=\"bold\"" : ""
        body.append(
            "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(fill)\"\(weight)>\(SVGCanvas.escape(text))</text>"
        )
    }

    var document: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif">
        <rect width="100%" height="100%" fill="#ffffff"/>
        \(body.joined(separator: "\n"))
        </svg>

        """
    }

    private func element(_ name: String, _ attributes: String, title: String?) -> String {
        guard let title else { return "<\(name) \(attributes)/>" }
        return "<\(name) \(attributes)><title>\(SVGCanvas.escape(title))</title></\(name)>"
    }

    /// Two decimals are finer than a pixel; fewer digits keep plots of long patterns small.
    private func n(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
