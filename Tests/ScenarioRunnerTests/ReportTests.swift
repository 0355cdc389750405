import ConformanceTestSupport
import Foundation
import ScenarioModel
import ScenarioRunner
import Testing

@Suite struct VerdictTests {
    static let race = Clause("MIP-03", "Commit Message Race Conditions")

    static func run(_ verdicts: [Verdict], engine: String = "mdk", notRun: String? = nil) -> ScenarioRun {
        ScenarioRun(
            scenario: "rename race", file: "scenarios/race.yaml", engine: engine, seed: 7,
            checks: verdicts.enumerated().map { CheckResult(check: "check \($0.offset)", clause: race, verdict: $0.element) },
            notRun: notRun, reproduce: "marmot-conform run scenarios/race.yaml --engine \(engine) --seed 7")
    }

    @Test func runVerdictIsTheMostNotableCheck() {
        #expect(Self.run([.pass, .pass]).verdict == .pass)
        // A note never changes a run's verdict: all checks held is a pass.
        #expect(Self.run([.pass, .info]).verdict == .pass)
        #expect(Self.run([.info]).verdict == .pass && Self.run([.info]).hasNotes && !Self.run([.pass]).hasNotes)
        #expect(Self.run([.knownDefect, .info]).verdict == .knownDefect)
        #expect(Self.run([.knownDefect, .fail, .unexpectedPass]).verdict == .fail)
        #expect(Self.run([.pass], notRun: "needs group.self_demote").verdict == .unsupported)
        // An error outranks everything: the other checks rest on state that could not be read.
        #expect(Self.run([.fail, .error, .knownDefect]).verdict == .error)
        #expect(Self.run([.error], notRun: "x").verdict == .error)
        #expect(Verdict.allCases.filter(\.failsTheRun) == [.fail, .error])
        // A stale ledger entry fails the gate unless the run allows it (local work).
        #expect(Verdict.allCases.filter { $0.failsTheGate() } == [.fail, .error, .unexpectedPass])
        #expect(Verdict.allCases.filter { $0.failsTheGate(allowingUnexpectedPass: true) } == [.fail, .error])
    }

    @Test func summaryLineStartsWithThePlainCounts() {
        let runs = [Self.run([.pass]), Self.run([.fail]), Self.run([.info]), Self.run([], notRun: "x"), Self.run([.knownDefect])]
        #expect(RunSummary(runs).line == "2 passed, 1 failed, 1 skipped, 1 known defects")
        #expect(RunSummary(runs).passesWithNotes == 1)
        // An unexpected pass counts as failed (it makes the command exit 1) unless allowed.
        let stale = runs + [Self.run([.unexpectedPass])]
        #expect(
            RunSummary(stale).line
                == "2 passed, 2 failed (of which 1 unexpected pass: stale ledger entry to remove), 1 skipped, 1 known defects")
        #expect(
            RunSummary(stale).line(allowingUnexpectedPass: true)
                == "3 passed, 1 failed, 1 skipped, 1 known defects, 1 unexpected pass (allowed)")
        // Errors count into "failed", so the plain pair never reads as a pass.
        #expect(RunSummary(runs + [Self.run([.pass, .error])]).line == "2 passed, 2 failed (of which 1 error), 1 skipped, 1 known defects")
    }

    @Test func ledgerNeverTurnsAnErrorIntoAKnownDefect() throws {
        let ledger = try DefectLedger(yaml: DefectLedgerTests.yaml, file: "known-defects.yaml")
        let applied = ledger.apply(to: Self.run([.error]), engineVersion: "0.8.0", today: "2026-11-21")
        #expect(applied.verdict == .error)
    }
}

@Suite struct DefectLedgerTests {
    static let yaml = """
        - engine: mdk
          version: 0.8.0
          scenario: rename race
          check: check 0
          clause: { spec: MIP-03, section: Commit Message Race Conditions }
          reason: the committer that merged its losing commit stays forked
          link: https://github.com/marmot-protocol/marmot/blob/master/03.md
          expires: 2027-06-30
        """

    @Test func failingListedCheckBecomesAKnownDefect() throws {
        let ledger = try DefectLedger(yaml: Self.yaml, file: "known-defects.yaml")
        let applied = ledger.apply(to: VerdictTests.run([.fail, .fail]), engineVersion: "0.8.0", today: "2026-11-21")
        #expect(applied.checks.map(\.verdict) == [.knownDefect, .fail])
        #expect(applied.checks[0].detail.contains("stays forked"))
    }

    @Test func passingListedCheckIsAnUnexpectedPass() throws {
        let ledger = try DefectLedger(yaml: Self.yaml, file: "known-defects.yaml")
        let applied = ledger.apply(to: VerdictTests.run([.pass]), engineVersion: "0.8.0", today: "2026-11-21")
        #expect(applied.verdict == .unexpectedPass)
    }

    @Test func entriesApplyOnlyToTheirEngineVersionAndBeforeExpiry() throws {
        let ledger = try DefectLedger(yaml: Self.yaml, file: "known-defects.yaml")
        #expect(ledger.apply(to: VerdictTests.run([.fail]), engineVersion: "0.9.0", today: "2026-11-21").verdict == .fail)
        #expect(ledger.apply(to: VerdictTests.run([.fail], engine: "swift"), engineVersion: "0.8.0", today: "2026-11-21").verdict == .fail)
        let expired = ledger.apply(to: VerdictTests.run([.fail]), engineVersion: "0.8.0", today: "2027-07-01")
        #expect(expired.verdict == .fail)
        #expect(expired.checks[0].detail.contains("expired"))
    }

    /// A race that one seed's schedule reaches is ledgered for that seed: the same failure on another
    /// seed still fails, and a pass on another seed is a plain pass, not an unexpected one.
    @Test func seedListedEntriesApplyOnlyToTheirSeeds() throws {
        let forSeven = try DefectLedger(yaml: Self.yaml + "\n  seeds: [7, 14]", file: "known-defects.yaml")
        #expect(forSeven.entries[0].seeds == [7, 14])
        #expect(forSeven.apply(to: VerdictTests.run([.fail]), engineVersion: "0.8.0", today: "2026-11-21").verdict == .knownDefect)
        let forOthers = try DefectLedger(yaml: Self.yaml + "\n  seeds: [14]", file: "known-defects.yaml")
        #expect(forOthers.apply(to: VerdictTests.run([.fail]), engineVersion: "0.8.0", today: "2026-11-21").verdict == .fail)
        #expect(forOthers.apply(to: VerdictTests.run([.pass]), engineVersion: "0.8.0", today: "2026-11-21").verdict == .pass)
    }

    @Test func seedListsAreCheckedWhereTheyAreWritten() {
        for (bad, column) in [("seeds: []", 10), ("seeds: [7, 7]", 14), ("seeds: [x]", 11), ("seeds: [-1]", 11)] {
            let error = #expect(throws: ScenarioError.self) { try DefectLedger(yaml: Self.yaml + "\n  " + bad, file: "l.yaml") }
            #expect(error?.location.line == 9, "\(bad)")
            #expect(error?.location.column == column, "\(bad): \(error?.description ?? "")")
        }
        // Two entries for one check are allowed only for disjoint seeds.
        let twice = Self.yaml + "\n  seeds: [1]\n" + Self.yaml + "\n  seeds: [2]"
        #expect((try? DefectLedger(yaml: twice, file: "l.yaml"))?.entries.count == 2)
        let overlapping = Self.yaml + "\n  seeds: [1, 2]\n" + Self.yaml + "\n  seeds: [2]"
        #expect(throws: ScenarioError.self) { try DefectLedger(yaml: overlapping, file: "l.yaml") }
        #expect(throws: ScenarioError.self) { try DefectLedger(yaml: Self.yaml + "\n" + Self.yaml + "\n  seeds: [2]", file: "l.yaml") }
    }

    /// A check name with a file position would stop matching as soon as a line moves.
    @Test func ledgerRefusesFilePositionsInCheckNames() {
        let positioned = Self.yaml.replacingOccurrences(
            of: "check: check 0", with: "check: \"step 6 (after the race) at scenarios/race.yaml:24:5: race winner\"")
        let error = #expect(throws: ScenarioError.self) { try DefectLedger(yaml: positioned, file: "l.yaml") }
        #expect(error?.description.contains("scenarios/race.yaml:24") == true)
        #expect(error?.location.line == 4)
    }

    @Test func shippedLedgerLoadsAndNamesNoPosition() throws {
        let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent("known-defects.yaml"), encoding: .utf8)
        let ledger = try DefectLedger(yaml: text, file: "known-defects.yaml")
        #expect(!ledger.entries.isEmpty)
        #expect(ledger.entries.allSatisfy { !$0.check.contains(".yaml:") })
    }

    @Test func malformedLedgerEntriesArePositioned() {
        let bad = Self.yaml.replacingOccurrences(of: "2027-06-30", with: "soon")
        let error = #expect(throws: ScenarioError.self) { try DefectLedger(yaml: bad, file: "l.yaml") }
        #expect(error?.description.hasPrefix("l.yaml:8:12:") == true)
        let missing = Self.yaml.replacingOccurrences(of: "  reason: the committer that merged its losing commit stays forked\n", with: "")
        let missingError = #expect(throws: ScenarioError.self) { try DefectLedger(yaml: missing, file: "l.yaml") }
        #expect(missingError?.code == .missingField)
    }
}

@Suite struct ReportFormatTests {
    static let runs: [TimedRun] = {
        var failing = VerdictTests.run([.pass, .fail])
        failing.checks[1] = CheckResult(
            check: "member bob: members", clause: Clause("RFC 9420", "§12.4"), verdict: .fail,
            expected: "[alice, bob]", observed: "[alice]", detail: "bob's member list differs <&\"'>")
        failing.capsule = "run/capsules/race-mdk-7.json"
        failing.fingerprint = "f00d"
        return zip(
            [
                VerdictTests.run([.pass]), failing, VerdictTests.run([], engine: "swift", notRun: "needs group.leave"),
                VerdictTests.run([.knownDefect, .info]),
            ], [0.25, 1.5, 0.0004, 2]
        ).map { TimedRun($0, seconds: $1) }
    }()

    struct JUnitVerdict: Decodable {
        struct Totals: Decodable { let tests: Int, failures: Int, skipped: Int, errors: Int }
        struct Case: Decodable { let name: String, classname: String, outcome: String, message: String }
        let ok: Bool
        let error: String?
        let totals: Totals?
        let cases: [Case]?
    }

    @Test(
        .enabled(
            if: Peers.shouldRun, "peer test: no Python venv at .venv (required when CI is set): run ci/setup to read JUnit with junitparser"
        ))
    func junitParserReadsOurReport() async throws {
        let xml = JUnitReport.xml(Self.runs)
        let verdicts = try await PythonVenv.verdicts(script: "ci/interop/check_junit.py", items: [["xml": xml]], as: JUnitVerdict.self)
        let verdict = try #require(verdicts.first)
        #expect(verdict.ok, "junitparser: \(verdict.error ?? "")")
        let totals = try #require(verdict.totals)
        #expect((totals.tests, totals.failures, totals.skipped, totals.errors) == (4, 1, 2, 0))
        let cases = try #require(verdict.cases)
        #expect(cases.map(\.outcome) == ["passed", "failure", "skipped", "skipped"])
        #expect(cases[1].message == "member bob: members: RFC 9420 §12.4")
        #expect(cases[0].name == "rename race [mdk, seed 7]")
    }

    @Test func junitFailureCarriesClauseReproductionAndCapsule() {
        let xml = JUnitReport.xml(Self.runs)
        #expect(xml.contains("reproduce: marmot-conform run scenarios/race.yaml --engine mdk --seed 7"))
        #expect(xml.contains("capsule: run/capsules/race-mdk-7.json"))
        #expect(xml.contains("bob&apos;s member list differs &lt;&amp;&quot;&apos;&gt;"))
        #expect(!xml.contains("<&\""))
    }

    /// Every testcase has its wall-clock time, suites and the whole report their sums, and each
    /// testcase names its engine, seed, fingerprint and reproduce command.
    @Test func junitHasTimesAndProperties() throws {
        let xml = JUnitReport.xml(Self.runs)
        let testcases = xml.components(separatedBy: "<testcase ").dropFirst()
        #expect(testcases.count == 4)
        #expect(testcases.allSatisfy { $0.prefix { $0 != ">" }.contains(" time=\"") })
        #expect(xml.contains("<testsuites name=\"marmot-conform\" tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\" time=\"3.750\">"))
        #expect(xml.contains("classname=\"scenarios/race.yaml\" time=\"1.500\""))
        #expect(xml.contains("time=\"0.000\""))
        #expect(xml.contains("<property name=\"engine\" value=\"swift\"/>"))
        #expect(xml.contains("<property name=\"seed\" value=\"7\"/>"))
        #expect(xml.contains("<property name=\"fingerprint\" value=\"f00d\"/>"))
        #expect(xml.contains("<property name=\"reproduce\" value=\"marmot-conform run scenarios/race.yaml --engine mdk --seed 7\"/>"))
        #expect(testcases.allSatisfy { $0.contains("<properties>") })
    }

    @Test func jsonReportRoundTripsTheRuns() throws {
        let text = try JSONReport.json(Self.runs, toolVersion: "test")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["format"] as? Int == JSONReport.formatVersion)
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary["failed"] == 1 && summary["unsupported"] == 1 && summary["knownDefects"] == 1)
        #expect(object["seconds"] as? Double == 3.7504)
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.map { $0["seconds"] as? Double } == [0.25, 1.5, 0.0004, 2])
        struct Doc: Decodable { let runs: [TimedRun] }
        #expect(try JSONDecoder().decode(Doc.self, from: Data(text.utf8)).runs == Self.runs)
    }
}
