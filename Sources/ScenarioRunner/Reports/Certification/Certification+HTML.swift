// The certification report as one self-contained HTML page: inline CSS, no script, no external
// resource, so that it opens from a release's attachments as it is. Each section's clause table
// is `<table class="clauses" id="clauses-<engine>">` with one `<tr class="clause">` per clause
// (the DOM test in MarmotConformCLITests reads them back from headless Chromium); rows are written
// without a <tbody>, which a browser's parser adds.
import Foundation

extension Certification {
    static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1b1b}table{border-collapse:collapse;margin:.6em 0 1.6em}
        th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left}th{background:#f0f0f0}
        td.n{text-align:right}.pass{color:#176b1c}.fail,.error{color:#a40e0e;font-weight:600}.known-defect{color:#8a5a00}
        code{font-size:12px}details summary{cursor:pointer}
        """

    package func html() -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>marmot-conform certification report</title>"
        out += "<style>\(Self.style)</style></head><body>\n<h1>marmot-conform certification report</h1>\n"
        out += "<p>Made by <code>marmot-conform report</code> from a run report of \(Self.text(document.tool)) "
        out += "(\(document.runs.count) runs, \(String(format: "%.1f", document.seconds)) s).</p>\n"
        for section in sections { out += Self.html(section, notApplicable: document.notApplicable ?? []) }
        return out + "</body></html>\n"
    }

    static func html(_ s: Section, notApplicable: [NotApplicable] = []) -> String {
        let id = anchor(s.engine)
        var out =
            "<section id=\"engine-\(id)\"><h2>Engine <code>\(text(s.engine))</code>\(s.version.map { " " + text($0) } ?? "")</h2>\n<ul>"
        out +=
            "<li class=\"standing\">Certification for profile <code>\(s.profile.rawValue)</code>: <strong>\(text(s.standing.line))</strong></li>"
        out += "<li>Verdicts: \(text(tally(RunSummary(s.runs).counts, columns: runVerdicts))) (\(s.runs.count) runs)</li>"
        out += "<li>Profile: <code>\(s.profile.rawValue)</code>: \(text(s.profile.text)); this evidence \(text(s.profile.certifies))</li>"
        if !notApplicable.isEmpty {
            out +=
                "<li>Not applicable to profile <code>\(s.profile.rawValue)</code> (not run, not counted): \(notApplicable.count) scenario(s): "
            out += text(notApplicable.map(\.file).joined(separator: ", ")) + "</li>"
        }
        out += "<li>Seeds: \(s.seeds.map(String.init).joined(separator: ", "))</li></ul>\n"
        out +=
            "<h3>Profiled rules</h3>\n<table class=\"rules\"><thead><tr><th>rule</th><th>what</th><th>under \(s.profile.rawValue)</th></tr></thead>\n"
        for rule in ProfiledRule.allCases {
            out +=
                "<tr><td><code>\(rule.rawValue)</code></td><td>\(text(rule.summary))</td><td>\(text(describe(rule.status(under: s.profile))))</td></tr>\n"
        }
        out += "</table>\n<h3>Spec texts</h3>\n<table class=\"specs\"><thead><tr><th>spec</th><th>text and version</th></tr></thead>\n"
        for (document, version) in specTexts(s) { out += "<tr class=\"spec\"><td>\(text(document))</td><td>\(text(version))</td></tr>\n" }
        out += "</table>\n<h3>Families × verdicts</h3>\n<table class=\"families\"><thead><tr><th>family</th>"
        out += runVerdicts.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr></thead>\n"
        for (family, counts) in s.families {
            out +=
                "<tr class=\"family\"><td>\(text(family))</td>" + runVerdicts.map { "<td class=\"n\">\(counts[$0] ?? 0)</td>" }.joined()
                + "</tr>\n"
        }
        out += "</table>\n" + clauseTable(s, id: id) + defectTable(s) + fingerprintTable(s)
        return out + "</section>\n"
    }

    static func clauseTable(_ s: Section, id: String) -> String {
        var out = "<h3>Coverage by clause</h3>\n<p>MUST: the checks judged under the profile (PASS/FAIL). SHOULD or unspecified: "
        out += "checks of rules the profile does not hold, characterized (YES/NO), never failing.</p>\n"
        out +=
            "<table class=\"clauses\" id=\"clauses-\(id)\"><thead><tr><th>clause</th><th>MUST</th><th>SHOULD or unspecified</th><th>scenarios</th>"
        out += "<th>checks</th><th>check verdicts</th><th>known defects</th></tr></thead>\n"
        for row in s.clauses {
            let scenarios = row.scenarios.map {
                "<li>\(text($0.name)) <span class=\"\($0.verdict.rawValue)\">\($0.verdict.rawValue)</span></li>"
            }
            out += "<tr class=\"clause\" data-clause=\"\(text(row.clause))\"><td>\(text(row.clause))</td>"
            out += "<td>\(row.must ?? "–")</td><td>\(row.characterized ?? "–")</td>"
            out += "<td>\(list(scenarios, noun: "scenario"))</td><td>\(list(row.checks.map { "<li>\(text($0))</li>" }, noun: "check"))</td>"
            out += "<td>\(text(tally(row.checkVerdicts)))</td><td class=\"n\">\(row.defects)</td></tr>\n"
        }
        return out + "</table>\n"
    }

    static func defectTable(_ s: Section) -> String {
        guard !s.defects.isEmpty else { return "<h3>Known defects</h3>\n<p>None listed for this engine.</p>\n" }
        var out =
            "<h3>Known defects</h3>\n<table class=\"defects\"><thead><tr><th>scenario</th><th>check</th><th>clause</th><th>reason</th>"
        out += "<th>seen in this run</th><th>expires</th></tr></thead>\n"
        for row in s.defects {
            let e = row.entry
            let link = e.link.hasPrefix("https://") ? " (<a href=\"\(text(e.link))\">link</a>)" : " (\(text(e.link)))"
            out += "<tr class=\"defect\"><td>\(text(e.scenario))</td><td>\(text(e.check))</td><td>\(text(citation(e.clause)))</td>"
            out += "<td>\(text(e.reason))\(link)</td><td>\(row.observed?.rawValue ?? "not run")</td><td>\(text(e.expires))</td></tr>\n"
        }
        return out + "</table>\n"
    }

    static func fingerprintTable(_ s: Section) -> String {
        let prints = fingerprints(s)
        guard !prints.isEmpty else { return "<h3>Fingerprints</h3>\n<p>No run of this engine is deterministic (no fingerprint).</p>\n" }
        var out =
            "<h3>Fingerprints</h3>\n<table class=\"fingerprints\"><thead><tr><th>scenario</th><th>seed</th><th>fingerprint</th></tr></thead>\n"
        for p in prints {
            out += "<tr><td>\(text(p.scenario))</td><td class=\"n\">\(p.seed)</td><td><code>\(text(p.fingerprint))</code></td></tr>\n"
        }
        return out + "</table>\n"
    }

    /// Items as a list, folded into <details> when there are many (no script needed).
    static func list(_ items: [String], noun: String) -> String {
        let body = "<ul>" + items.joined() + "</ul>"
        return items.count <= 5 ? body : "<details><summary>\(items.count) \(noun)s</summary>\(body)</details>"
    }

    static func text(_ value: String) -> String { XMLText.escape(value, lineBreaks: .spaces) }

    /// An id-safe form of an engine selection name.
    static func anchor(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" ? Character($0) : "_" })
    }
}
