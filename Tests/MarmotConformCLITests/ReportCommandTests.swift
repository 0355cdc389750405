import ConformanceTestSupport
import Foundation
import Testing

/// `marmot-conform report`: a real run's JSON becomes a certification report whose clause coverage
/// lists every clause its scenarios cite, and whose HTML headless Chromium renders with that table.
@Suite(.serialized) struct ReportCommandTests {
    static let scenarios = ["scenarios/group-lifecycle", "scenarios/engine-probes", "scenarios/concurrent-commits/rename-rename-race.yaml"]

    /// Runs the scenarios on our engine with `--json`, then `report`; returns the folder holding
    /// `run.json`, `report.md` and `report.html`.
    static func runAndReport(_ extra: [String] = [], note: String? = nil, scenarios: [String] = scenarios) throws -> URL {
        let directory = try RunAndReplayTests.temporaryDirectory()
        let run = try RunAndReplayTests.run(
            ["run"] + scenarios + ["--engine", "swift", "--json", directory.appendingPathComponent("run.json").path] + extra)
        #expect(run.status == 0, "\(run.text)")
        if let note { #expect(run.text.contains(note), "\(run.text)") }
        let report = try RunAndReplayTests.run([
            "report", directory.appendingPathComponent("run.json").path, "--md", directory.appendingPathComponent("report.md").path,
            "--html", directory.appendingPathComponent("report.html").path,
        ])
        #expect(report.status == 0, "\(report.text)")
        return directory
    }

    static func cited() throws -> Set<String> {
        var out: Set<String> = []
        for path in scenarios {
            let url = Vectors.repositoryRoot.appendingPathComponent(path)
            if path.hasSuffix(".yaml") {
                out.formUnion(CitedClauses.of(try String(contentsOf: url, encoding: .utf8)))
            } else {
                out.formUnion(try CitedClauses.under([url]))
            }
        }
        return out
    }

    @Test(.enabled(if: Chromium.shouldRun, "no chromium on PATH (ci/setup installs the Debian package)"))
    func theHTMLRendersInChromiumWithARowForEveryCitedClause() throws {
        let directory = try Self.runAndReport()
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        // We write no <tbody>: one in the dump is the browser's parser at work, not our text echoed.
        #expect(!html.contains("<tbody>"))
        let dom = try Chromium.dumpDOM(of: directory.appendingPathComponent("report.html"))
        let table = try #require(dom.range(of: "<table class=\"clauses\" id=\"clauses-swift\">"), "no clause table in the DOM")
        #expect(dom[table.upperBound...].contains("<tbody>"))
        let rows = Chromium.clauseRows(in: dom)
        let cited = try Self.cited()
        #expect(cited.count >= 5, "read too few clauses: \(cited)")
        #expect(cited.subtracting(rows).isEmpty, "clauses missing from the rendered table: \(cited.subtracting(rows).sorted())")
        #expect(rows.count == Set(rows).count, "a clause has two rows")
        // Checks name their clauses too (the race oracle's, the runner's own).
        #expect(rows.contains("MIP-03 Commit Message Race Conditions"))
        #expect(dom.contains("<li>Profile: <code>legacy</code>"))
    }

    @Test func theMarkdownListsEveryCitedClauseVersionsSeedsAndFingerprints() throws {
        let directory = try Self.runAndReport()
        defer { try? FileManager.default.removeItem(at: directory) }
        let markdown = try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8)
        for clause in try Self.cited() { #expect(markdown.contains("\n| \(clause) |"), "no row for \(clause)") }
        #expect(markdown.contains("## Engine `swift` 0.1"))
        #expect(markdown.contains("- Seeds: 1"))
        #expect(markdown.contains("| group-lifecycle |"))
        #expect(markdown.contains("### Fingerprints"))
        let json = try String(contentsOf: directory.appendingPathComponent("run.json"), encoding: .utf8)
        // Every fingerprint of the run is in the report.
        let prints = json.components(separatedBy: "\"fingerprint\" : \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(prints.count == 6)
        for print in prints { #expect(markdown.contains("`\(print)`")) }
    }

    /// Twin: a file that is not a run report is refused with the usage status and a reason.
    @Test func aFileThatIsNotARunReportIsRefused() throws {
        let directory = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("not-a-report.json")
        try Data("{\"format\": 1, \"runs\": []}".utf8).write(to: file)
        let output = try RunAndReplayTests.run(["report", file.path])
        #expect(output.status == 64, "\(output.text)")
        #expect(output.text.contains("not a marmot-conform run report"), "\(output.text)")
    }

    /// `--profile marmot-current` (the old name of `current`, accepted with a note): the run's
    /// members speak the current profile, which our engine does not declare yet, so every scenario
    /// is unsupported (never a pass); the JSON and the report name the profile and say what its
    /// evidence certifies. (How the current profile judges the race rule: SpecProfileTests.)
    @Test func theProfileReachesTheReport() throws {
        // engine-probes' forged-wrapper-signature is a listed gap of the current profile
        // (scenarios/current-profile/GAPS.txt), so this run leaves that family out.
        let directory = try Self.runAndReport(
            ["--profile", "marmot-current"], note: "profile 'marmot-current' is now called 'current'",
            scenarios: ["scenarios/group-lifecycle", "scenarios/concurrent-commits/rename-rename-race.yaml"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try String(contentsOf: directory.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(json.contains("\"profile\" : \"current\""))
        let markdown = try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("- Profile: `current`"))
        #expect(markdown.contains("certifies the current profile"))
        #expect(markdown.contains("| `commit-race-by-created-at` |"))
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<li>Profile: <code>current</code>"))
    }

    /// The default profile is legacy: the report says MDK 0.8.0-era evidence certifies it only.
    @Test func theLegacyReportSaysWhatItCertifies() throws {
        let directory = try Self.runAndReport()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try String(contentsOf: directory.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(json.contains("\"profile\" : \"legacy\""))
        let markdown = try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("- Profile: `legacy`"))
        #expect(markdown.contains("certifies the legacy profile only"))
    }
}
