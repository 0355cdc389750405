// The certification report (`marmot-conform report RUN.json`): what an engine team attaches to a
// release. Built from a run's JSON report alone (docs/report-format.md), one section per engine
// selection: families × verdicts, coverage by clause (every clause a scenario cites, every clause
// a check or a ledger entry names, with the scenarios and checks that cover it), known defects
// with links, engine versions, the profile, seeds and fingerprints. Rendered as Markdown
// (`+Markdown`) and as one self-contained HTML page (`+HTML`).
import EngineInterface
import Foundation
import ScenarioModel

package struct Certification: Sendable {
    package let document: JSONReport.Document
    package let sections: [Section]

    /// The check verdict columns, in the order the reports print them.
    static let verdicts: [Verdict] = [.pass, .fail, .error, .unsupported, .info, .knownDefect, .unexpectedPass]
    /// The run verdict columns: a note (`info`) never makes a run anything but a pass.
    static let runVerdicts: [Verdict] = [.pass, .fail, .error, .unsupported, .knownDefect, .unexpectedPass]

    /// One engine selection's part of the run.
    package struct Section: Sendable {
        package let engine: String
        package let version: String?
        package let profile: MarmotProfile
        package let runs: [ScenarioRun]
        package let families: [(family: String, counts: [Verdict: Int])]
        package let clauses: [ClauseRow]
        package let defects: [DefectRow]
        package let seeds: [UInt64]
        /// The capabilities the profile requires that the engine lacks (from the runs' failed
        /// `engine offers what the profile requires` checks), sorted.
        package let missingCapabilities: [String]

        /// Whether this evidence certifies the engine for the section's profile.
        package var standing: Standing {
            var reasons: [String] = []
            if !missingCapabilities.isEmpty {
                reasons.append("the engine lacks capabilities the profile requires: \(missingCapabilities.joined(separator: ", "))")
            }
            let summary = RunSummary(runs)
            if summary[.fail] > 0 { reasons.append("\(summary[.fail]) run(s) failed") }
            if summary[.error] > 0 { reasons.append("\(summary[.error]) run(s) could not be judged (error)") }
            if summary[.unexpectedPass] > 0 { reasons.append("\(summary[.unexpectedPass]) stale ledger entr(ies): unexpected passes") }
            if runs.isEmpty || summary[.pass] + summary[.knownDefect] == 0 { reasons.append("no run passed") }
            if !reasons.isEmpty { return .notCertified(reasons) }
            return summary[.knownDefect] > 0 ? .certifiedWithDefects(summary[.knownDefect]) : .certified
        }
    }

    /// The section's verdict on the engine for its profile.
    package enum Standing: Equatable, Sendable {
        case certified
        /// Every other check passed; this many runs failed only on ledgered known defects.
        case certifiedWithDefects(Int)
        case notCertified([String])

        /// `PASS`, `PASS with 3 known defects (ledgered)`, `FAIL: …`.
        package var line: String {
            switch self {
            case .certified: "PASS"
            case .certifiedWithDefects(let count): "PASS with \(count) known defect(s) (ledgered, each with its clause)"
            case .notCertified(let reasons): "FAIL: " + reasons.joined(separator: "; ")
            }
        }
    }

    /// A clause and what covers it in this section.
    package struct ClauseRow: Sendable {
        /// `MIP-03 Commit Messages`, `RFC 9420 §12.4`: the spec and section as cited.
        package let clause: String
        /// The scenarios citing it (`clauses:`) or holding a check that enforces it, with their run verdicts.
        package let scenarios: [(name: String, verdict: Verdict)]
        /// The distinct checks enforcing it, with how often each verdict came out.
        package let checks: [String]
        package let checkVerdicts: [Verdict: Int]
        /// Ledger entries citing it.
        package let defects: Int
        /// The judged (MUST) checks of the clause: `PASS`, `FAIL`, `FAIL (ledgered)`; nil when no
        /// check of it was judged under the profile.
        package let must: String?
        /// Checks of rules the profile does not hold (SHOULD or unspecified there), characterized:
        /// `YES` when the engine behaved as they expect every time, else `NO`; nil when none.
        package let characterized: String?
    }

    /// A known-defects ledger entry of the section's engine, with what the run showed of it.
    package struct DefectRow: Sendable {
        package let entry: JSONReport.LedgerEntry
        /// `known-defect`, `unexpected-pass`, `fail` (the entry expired or names another version), or nil when no run had the check.
        package let observed: Verdict?
    }

    /// Reads a run's JSON report; a file that is not one is a typed error naming the file.
    package init(json data: Data, file: String) throws(ScenarioError) {
        let here = SourceLocation(file: file, line: 1, column: 1)
        let document: JSONReport.Document
        do {
            document = try JSONDecoder().decode(JSONReport.Document.self, from: data)
        } catch {
            throw ScenarioError(.invalidValue, at: here, "not a marmot-conform run report (run --json): \(error)")
        }
        guard document.format == JSONReport.formatVersion else {
            throw ScenarioError(.invalidValue, at: here, "report format \(document.format) is not \(JSONReport.formatVersion)")
        }
        guard !document.runs.isEmpty else { throw ScenarioError(.invalidValue, at: here, "the report holds no run") }
        self.init(document)
    }

    package init(_ document: JSONReport.Document) {
        self.document = document
        let engines = Set(document.runs.map(\.run.engine)).sorted()
        sections = engines.map { engine in Self.section(engine, document: document) }
    }

    static func section(_ engine: String, document: JSONReport.Document) -> Section {
        let runs = document.runs.map(\.run).filter { $0.engine == engine }
        let ledger = (document.ledger ?? []).filter { $0.engine == engine }
        return Section(
            engine: engine, version: document.engineVersions?[engine],
            profile: runs.compactMap(\.profile).first ?? document.profile ?? .standard, runs: runs,
            families: families(runs), clauses: clauseRows(runs, ledger: ledger), defects: defectRows(ledger, runs: runs),
            seeds: Set(runs.map(\.seed)).sorted(), missingCapabilities: missingCapabilities(runs))
    }

    /// What the runs' requirement checks say the engine lacks.
    static func missingCapabilities(_ runs: [ScenarioRun]) -> [String] {
        let observed = runs.flatMap(\.checks).filter { $0.check == ScenarioExecutor.requiredCapabilitiesCheck && $0.verdict == .fail }
            .compactMap(\.observed)
        let names = observed.flatMap { text in
            text.replacingOccurrences(of: "missing: ", with: "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return Set(names.filter { !$0.isEmpty }).sorted()
    }

    /// The family of a scenario file: its folder under `scenarios/` (`scenarios/roles/matrix/x.yaml` → `roles`).
    package static func family(of file: String) -> String {
        var path = Substring(file)
        if let range = path.range(of: "scenarios/") { path = path[range.upperBound...] }
        let parts = path.split(separator: "/")
        return parts.count > 1 ? String(parts[0]) : "(top level)"
    }

    static func families(_ runs: [ScenarioRun]) -> [(family: String, counts: [Verdict: Int])] {
        var counts: [String: [Verdict: Int]] = [:]
        for run in runs { counts[family(of: run.file), default: [:]][run.verdict, default: 0] += 1 }
        return counts.keys.sorted().map { ($0, counts[$0] ?? [:]) }
    }

    /// A check clause as scenario files cite clauses: spec and section with a space between.
    package static func citation(_ clause: Clause) -> String { "\(clause.spec) \(clause.section)" }

    static func clauseRows(_ runs: [ScenarioRun], ledger: [JSONReport.LedgerEntry]) -> [ClauseRow] {
        struct Tally {
            var scenarios: [String: Verdict] = [:]
            var checks: Set<String> = []
            var verdicts: [Verdict: Int] = [:]
            var defects = 0
            var characterized: [Bool] = []
        }
        var rows: [String: Tally] = [:]
        for run in runs {
            for clause in run.clauses ?? [] { rows[clause, default: Tally()].scenarios[run.scenario] = run.verdict }
            for check in run.checks {
                // A check of a profiled rule also covers the clause the run's profile cites for that rule.
                var keys = [citation(check.clause)]
                if let rule = check.rule, case .holds(let clause) = rule.status(under: run.profile ?? .standard),
                    citation(clause) != keys[0]
                {
                    keys.append(citation(clause))
                }
                for key in keys {
                    rows[key, default: Tally()].scenarios[run.scenario] = run.verdict
                    rows[key, default: Tally()].checks.insert(check.check)
                    rows[key, default: Tally()].verdicts[check.verdict, default: 0] += 1
                    if let held = check.characterized { rows[key, default: Tally()].characterized.append(held) }
                }
            }
        }
        for entry in ledger { rows[citation(entry.clause), default: Tally()].defects += 1 }
        return rows.keys.sorted().map { key in
            let tally = rows[key] ?? Tally()
            return ClauseRow(
                clause: key, scenarios: tally.scenarios.keys.sorted().map { ($0, tally.scenarios[$0] ?? .pass) },
                checks: tally.checks.sorted(), checkVerdicts: tally.verdicts, defects: tally.defects,
                must: mustResult(tally.verdicts),
                characterized: tally.characterized.isEmpty ? nil : (tally.characterized.allSatisfy { $0 } ? "YES" : "NO"))
        }
    }

    /// PASS/FAIL of a clause's judged checks (every verdict but notes and skips).
    static func mustResult(_ verdicts: [Verdict: Int]) -> String? {
        func has(_ verdict: Verdict) -> Bool { (verdicts[verdict] ?? 0) > 0 }
        if has(.fail) || has(.error) || has(.unexpectedPass) { return "FAIL" }
        if has(.knownDefect) { return "FAIL (ledgered)" }
        return has(.pass) ? "PASS" : nil
    }

    static func defectRows(_ ledger: [JSONReport.LedgerEntry], runs: [ScenarioRun]) -> [DefectRow] {
        ledger.map { entry in
            let seen = runs.filter { $0.scenario == entry.scenario }.flatMap(\.checks).filter { $0.check == entry.check }.map(\.verdict)
            let observed = [Verdict.fail, .error, .knownDefect, .unexpectedPass, .info, .pass].first(where: seen.contains)
            return DefectRow(entry: entry, observed: observed)
        }
    }

    /// Fingerprinted runs of a section, in run order.
    static func fingerprints(_ section: Section) -> [(scenario: String, seed: UInt64, fingerprint: String)] {
        section.runs.compactMap { run in run.fingerprint.map { (run.scenario, run.seed, $0) } }
    }

    /// The spec documents the section's clauses name, each with its text and version or date under
    /// the section's profile.
    package static func specTexts(_ section: Section) -> [(document: String, version: String)] {
        Set(section.clauses.compactMap { SpecTexts.document(of: $0.clause) }).sorted()
            .map { ($0, SpecTexts.version(of: $0, under: section.profile)) }
    }

    /// `3 pass, 1 fail`: the non-zero counts, in column order.
    static func tally(_ counts: [Verdict: Int], columns: [Verdict] = verdicts) -> String {
        columns.compactMap { verdict in counts[verdict].flatMap { $0 > 0 ? "\($0) \(verdict.rawValue)" : nil } }.joined(separator: ", ")
    }
}
