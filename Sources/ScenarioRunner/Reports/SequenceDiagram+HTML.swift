// The sequence diagram as one standalone HTML page with inline SVG: no script, no stylesheet or
// font from elsewhere, so it opens from a CI artifact or a mail attachment as it is. The page is
// also well-formed XML (tests parse it as such).

extension SequenceDiagram {
    static let column = 170
    static let row = 26
    static let top = 70

    /// The page.
    package func html() -> String {
        let width = max(1, participants.count) * Self.column + 40
        let height = Self.top + (items.count + 1) * Self.row + 30
        var x: [String: Int] = [:]
        for (index, name) in participants.enumerated() { x[name] = 20 + index * Self.column + Self.column / 2 }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            font-family="monospace" font-size="11">
            <defs><marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">\
            <path d="M 0 0 L 10 5 L 0 10 z" fill="#333"/></marker></defs>

            """
        for name in participants {
            let cx = x[name] ?? 0
            svg += "<g class=\"lifeline\" data-name=\"\(Self.xml(name))\">"
            svg += "<rect x=\"\(cx - 70)\" y=\"10\" width=\"140\" height=\"30\" rx=\"4\" fill=\"#e8eef7\" stroke=\"#456\"/>"
            svg += "<text class=\"lifeline\" x=\"\(cx)\" y=\"30\" text-anchor=\"middle\" font-size=\"13\">\(Self.xml(name))</text>"
            svg += "<line x1=\"\(cx)\" y1=\"40\" x2=\"\(cx)\" y2=\"\(height - 10)\" stroke=\"#9ab\" stroke-dasharray=\"4 3\"/></g>\n"
        }
        let left = 20
        let right = width - 20
        for (index, item) in items.enumerated() {
            let y = Self.top + index * Self.row
            switch item {
            case .arrow(let from, let to, let label, let lost):
                let x1 = x[from] ?? left
                let x2 = x[to] ?? left
                let color = lost ? "#c0392b" : "#333"
                svg += "<g class=\"arrow\(lost ? " lost" : "")\" data-from=\"\(Self.xml(from))\" data-to=\"\(Self.xml(to))\">"
                if lost {
                    svg += "<line x1=\"\(x1)\" y1=\"\(y)\" x2=\"\(x2)\" y2=\"\(y)\" stroke=\"\(color)\" stroke-dasharray=\"5 3\"/>"
                    svg +=
                        "<path d=\"M \(x2 - 5) \(y - 5) L \(x2 + 5) \(y + 5) M \(x2 - 5) \(y + 5) L \(x2 + 5) \(y - 5)\" stroke=\"\(color)\" stroke-width=\"2\"/>"
                } else {
                    svg += "<line x1=\"\(x1)\" y1=\"\(y)\" x2=\"\(x2)\" y2=\"\(y)\" stroke=\"\(color)\" marker-end=\"url(#head)\"/>"
                }
                svg +=
                    "<text x=\"\((x1 + x2) / 2)\" y=\"\(y - 4)\" text-anchor=\"middle\" fill=\"\(color)\">\(Self.xml(Self.clip(label, 40)))"
                svg += "<title>\(Self.xml(label))</title></text></g>\n"
            case .note(let over, let text, let kind):
                let xs = over.compactMap { x[$0] }
                let (x1, x2) = xs.isEmpty ? (left, right) : (xs.min()! - 75, xs.max()! + 75)
                let fill =
                    switch kind {
                    case .failure: "#f8d7da"
                    case .step: "#e2e3e5"
                    case .update: "#fff3cd"
                    case .fault: "#fde2c8"
                    }
                svg +=
                    "<g class=\"note \(kind.rawValue)\"><rect x=\"\(x1)\" y=\"\(y - 15)\" width=\"\(x2 - x1)\" height=\"20\" fill=\"\(fill)\""
                svg += kind == .failure ? " stroke=\"#c0392b\" stroke-width=\"2\"/>" : " stroke=\"#bbb\"/>"
                svg += "<text x=\"\(x1 + 6)\" y=\"\(y - 1)\"\(kind == .failure ? " font-weight=\"bold\" fill=\"#8b0000\"" : "")>"
                svg += "\(Self.xml(Self.clip(text, max(20, (x2 - x1) / 7))))<title>\(Self.xml(text))</title></text></g>\n"
            }
        }
        svg += "</svg>"
        let failures = items.filter { if case .note(_, _, .failure) = $0 { true } else { false } }.count
        return """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
            <head><meta charset="utf-8"/><title>\(Self.xml(title))</title></head>
            <body style="font-family: sans-serif; margin: 16px;">
            <h1 style="font-size: 16px;">\(Self.xml(title))</h1>
            <p>\(participants.count) lifelines, \(items.count) entries, \(failures) failing check(s) (red). \
            Hover a label for its full text.</p>
            \(svg)
            </body>
            </html>

            """
    }

    static func clip(_ text: String, _ length: Int) -> String {
        text.count <= length ? text : String(text.prefix(max(1, length - 1))) + "…"
    }

    /// Text safe in SVG content and attributes, on one line.
    static func xml(_ text: String) -> String { XMLText.escape(text, lineBreaks: .spaces) }
}
