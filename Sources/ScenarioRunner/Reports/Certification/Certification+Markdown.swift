// The certification report as Markdown (GitHub-flavoured tables). Long cells are capped: the
// HTML page lists every scenario and check of a clause.
import Foundation

extension Certification {
    /// How many names a Markdown cell lists before "… and N more".
    static let markdownCellLimit = 12

    package func markdown() -> String {
        var out = "# marmot-conform certification report\n\n"
        out += "Made by `marmot-conform report` from a run report of \(document.tool) (\(document.runs.count) runs, "
        out += "\(String(format: "%.1f", document.seconds)) s).\n"
        for section in sections { out += "\n" + Self.markdown(section, notApplicable: document.notApplicable ?? []) }
        return out
    }

    static func markdown(_ s: Section, notApplicable: [NotApplicable] = []) -> String {
        var out = "## Engine `\(s.engine)`\(s.version.map { " \($0)" } ?? "")\n\n"
        out += "- Certification for profile `\(s.profile.rawValue)`: **\(s.standing.line)**\n"
        out += "- Verdicts: \(tally(RunSummary(s.runs).counts, columns: runVerdicts)) (\(s.runs.count) runs)\n"
        out += "- Profile: `\(s.profile.rawValue)`: \(s.profile.text); this evidence \(s.profile.certifies)\n"
        if !notApplicable.isEmpty {
            out += "- Not applicable to profile `\(s.profile.rawValue)` (not run, not counted): \(notApplicable.count) scenario(s): "
            out += capped(notApplicable.map(\.file)) + "\n"
        }
        out += "- Seeds: \(s.seeds.map(String.init).joined(separator: ", "))\n\n"
        out += "### Profiled rules\n\n| rule | what | under `\(s.profile.rawValue)` |\n|---|---|---|\n"
        for rule in ProfiledRule.allCases {
            out += "| `\(rule.rawValue)` | \(cell(rule.summary)) | \(cell(describe(rule.status(under: s.profile)))) |\n"
        }
        out += "\n### Spec texts\n\n| spec | text and version |\n|---|---|\n"
        for (document, version) in specTexts(s) { out += "| \(cell(document)) | \(cell(version)) |\n" }
        out += "\n### Families × verdicts\n\n| family | " + runVerdicts.map(\.rawValue).joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---:|", count: runVerdicts.count) + "\n"
        for (family, counts) in s.families {
            out += "| \(cell(family)) | " + runVerdicts.map { "\(counts[$0] ?? 0)" }.joined(separator: " | ") + " |\n"
        }
        out += "\n### Coverage by clause\n\n"
        out += "MUST: the checks judged under the profile (PASS/FAIL). SHOULD or unspecified: checks of rules the profile does not "
        out += "hold, characterized (YES: the engine behaved as they expect; NO: it did not), never failing.\n\n"
        out += "| clause | MUST | SHOULD or unspecified | scenarios | checks | check verdicts | known defects |\n"
        out += "|---|---|---|---|---|---|---:|\n"
        for row in s.clauses {
            let scenarios = capped(row.scenarios.map { "\($0.name) (\($0.verdict.rawValue))" })
            out += "| \(cell(row.clause)) | \(row.must ?? "–") | \(row.characterized ?? "–") | "
            out += "\(row.scenarios.count): \(scenarios) | \(row.checks.count): \(capped(row.checks)) | "
            out += "\(cell(tally(row.checkVerdicts))) | \(row.defects) |\n"
        }
        out += "\n### Known defects\n\n"
        if s.defects.isEmpty {
            out += "None listed for this engine.\n"
        } else {
            out += "| scenario | check | clause | reason | seen in this run | expires |\n|---|---|---|---|---|---|\n"
            for row in s.defects {
                let e = row.entry
                out += "| \(cell(e.scenario)) | \(cell(e.check)) | \(cell(citation(e.clause))) | \(cell(e.reason)) ([link](\(e.link))) | "
                out += "\(row.observed?.rawValue ?? "not run") | \(e.expires) |\n"
            }
        }
        out += "\n### Fingerprints\n\n"
        let prints = fingerprints(s)
        if prints.isEmpty {
            out += "No run of this engine is deterministic (no fingerprint).\n"
        } else {
            out += "| scenario | seed | fingerprint |\n|---|---:|---|\n"
            for p in prints { out += "| \(cell(p.scenario)) | \(p.seed) | `\(p.fingerprint)` |\n" }
        }
        return out
    }

    static func describe(_ status: RuleStatus) -> String {
        switch status {
        case .holds(let clause): "held, citing \(citation(clause))"
        case .notHeld(let why): "not held: \(why)"
        }
    }

    static func capped(_ names: [String]) -> String {
        let shown = names.prefix(markdownCellLimit).map(cell).joined(separator: "; ")
        return names.count > markdownCellLimit ? shown + "; … and \(names.count - markdownCellLimit) more (HTML report)" : shown
    }

    /// A table cell: pipes escaped, line breaks as spaces.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
