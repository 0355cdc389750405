import EngineInterface
import Foundation
import ScenarioModel
import ScenarioRunner
import Testing

/// The certification report from a run's JSON: coverage by clause (scenario citations, check
/// clauses, ledger entries), families × verdicts, known defects with links, hostile text escaped.
@Suite struct CertificationTests {
    static let ledger = DefectLedger(entries: [
        KnownDefect(
            engine: "mdk", version: "0.8.0", scenario: "forged <wrapper>", check: "member bob: chats",
            clause: Clause("NIP-01", "Events and signatures"),
            reason: "processes a kind-445 wrapper whose signature does not verify", link: "https://example.org/defect",
            expires: "2027-06-30"),
        KnownDefect(
            engine: "mdk", version: "0.8.0", scenario: "never run", check: "converged", clause: Clause("MIP-03", "Ledger Only"),
            reason: "r", link: "https://example.org/other", expires: "2027-06-30"),
        KnownDefect(
            engine: "swift", version: "0.1", scenario: "x", check: "y", clause: Clause("MIP-09", "Other Engine"),
            reason: "r", link: "l", expires: "2027-06-30"),
    ])

    static func document() throws -> Data {
        var lifecycle = ScenarioRun(
            scenario: "four members", file: "scenarios/group-lifecycle/four-members.yaml", engine: "mdk", seed: 3,
            checks: [CheckResult(check: "converged", clause: Clause("MIP-03", "Commit Message Race Conditions"), verdict: .pass)],
            fingerprint: "abc123", reproduce: "-")
        lifecycle.clauses = ["MIP-01 Group Creation", "MIP-02 Welcome Events"]
        var forged = ScenarioRun(
            scenario: "forged <wrapper>", file: "scenarios/engine-probes/forged.yaml", engine: "mdk", seed: 3,
            checks: [CheckResult(check: "member bob: chats", clause: Clause("MIP-01", "Group State Changes"), verdict: .knownDefect)],
            reproduce: "-")
        forged.clauses = ["NIP-01 Events and signatures", "MIP-03 Security Requirements"]
        var skipped = ScenarioRun(
            scenario: "needs leave", file: "scenarios/group-lifecycle/leave.yaml", engine: "mdk", seed: 3, notRun: "no leave",
            reproduce: "-")
        skipped.clauses = ["MIP-03 Commit Messages"]
        let timed = [lifecycle, forged, skipped].map { TimedRun($0, seconds: 1) }
        let context = JSONReport.Context(engineVersions: ["mdk": "0.8.0"], ledger: ledger)
        return Data(try JSONReport.json(timed, toolVersion: "test", context: context).utf8)
    }

    @Test func theRunJSONCarriesWhatTheReportNeeds() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: try Self.document()) as? [String: Any])
        #expect(object["profile"] as? String == "legacy")
        #expect(object["engineVersions"] as? [String: String] == ["mdk": "0.8.0"])
        // Only the ledger entries of the engines that ran.
        #expect((object["ledger"] as? [[String: Any]])?.count == 2)
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.first?["clauses"] as? [String] == ["MIP-01 Group Creation", "MIP-02 Welcome Events"])
    }

    @Test func coverageListsEveryCitedCheckedAndLedgeredClause() throws {
        let report = try Certification(json: try Self.document(), file: "run.json")
        let section = try #require(report.sections.first)
        #expect(report.sections.map(\.engine) == ["mdk"])
        #expect(section.version == "0.8.0")
        let clauses = section.clauses.map(\.clause)
        #expect(
            clauses == [
                "MIP-01 Group Creation", "MIP-01 Group State Changes", "MIP-02 Welcome Events", "MIP-03 Commit Message Race Conditions",
                "MIP-03 Commit Messages", "MIP-03 Ledger Only", "MIP-03 Security Requirements", "NIP-01 Events and signatures",
            ])
        let nip01 = try #require(section.clauses.first { $0.clause == "NIP-01 Events and signatures" })
        #expect(nip01.scenarios.map(\.name) == ["forged <wrapper>"])
        #expect(nip01.scenarios.map(\.verdict) == [.knownDefect])
        #expect(nip01.defects == 1)
        let race = try #require(section.clauses.first { $0.clause == "MIP-03 Commit Message Race Conditions" })
        #expect(race.checks == ["converged"] && race.checkVerdicts == [.pass: 1])
        // An unsupported run's citations are still listed, with its verdict.
        #expect(section.clauses.first { $0.clause == "MIP-03 Commit Messages" }?.scenarios.map(\.verdict) == [.unsupported])
        #expect(section.families.map(\.family) == ["engine-probes", "group-lifecycle"])
        #expect(section.families.last?.counts == [.pass: 1, .unsupported: 1])
        #expect(section.defects.map(\.observed) == [.knownDefect, nil])
        #expect(section.seeds == [3])
    }

    @Test func theRenderingsCarryTheTablesLinksAndEscapedText() throws {
        let report = try Certification(json: try Self.document(), file: "run.json")
        let markdown = report.markdown()
        #expect(markdown.contains("## Engine `mdk` 0.8.0"))
        #expect(markdown.contains("| MIP-03 Ledger Only | – | – | 0:  | 0:  |  | 1 |"))
        #expect(markdown.contains("| MIP-03 Commit Message Race Conditions | PASS | – | 1: four members (pass) |"), "\(markdown)")
        #expect(markdown.contains("| MIP-01 Group State Changes | FAIL (ledgered) | – |"), "\(markdown)")
        // One ledgered defect, one pass, one skip: certified, with the defect said.
        #expect(markdown.contains("Certification for profile `legacy`: **PASS with 1 known defect(s) (ledgered, each with its clause)**"))
        #expect(markdown.contains("([link](https://example.org/defect)) | known-defect | 2027-06-30 |"))
        #expect(markdown.contains("| four members | 3 | `abc123` |"))
        #expect(markdown.contains("| group-lifecycle | 1 | 0 | 0 | 1 | 0 | 0 |"))
        let html = report.html()
        #expect(html.components(separatedBy: "<tr class=\"clause\"").count - 1 == 8)
        #expect(html.contains("<a href=\"https://example.org/defect\">link</a>"))
        #expect(html.contains("forged &lt;wrapper&gt;"))
        #expect(!html.contains("<wrapper>"))
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("<link"), "the page is self-contained")
    }

    /// Twins: what is not a run report is a typed error naming the file, never an empty report.
    @Test func notARunReportIsRefused() throws {
        for (text, reason) in [
            ("[]", "not a marmot-conform run report"), ("{\"format\": 1}", "not a marmot-conform run report"),
            (
                String(decoding: try Self.document(), as: UTF8.self).replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 2"),
                "format 2"
            ),
        ] {
            #expect {
                _ = try Certification(json: Data(text.utf8), file: "bad.json")
            } throws: { error in
                "\(error)".contains("bad.json:1:1") && "\(error)".contains(reason)
            }
        }
    }

    /// A check of a profiled rule covers its own clause and the one the run's profile cites for the rule.
    @Test func aProfiledCheckCoversTheClauseItsProfileCites() throws {
        for (profile, cited) in [
            (MarmotProfile.legacy, "NIP-01 Events and signatures"), (.current, "transports/nostr.md Group message delivery"),
        ] {
            let check = CheckResult(
                check: "member bob: chats", clause: Clause("MIP-01", "Group State Changes"), verdict: .pass, rule: .groupEventSignature)
            var run = profile.judge(
                ScenarioRun(scenario: "probe", file: "scenarios/p/p.yaml", engine: "e", seed: 1, checks: [check], reproduce: "-"))
            run.clauses = []
            let report = try Certification(
                json: Data(try JSONReport.json([TimedRun(run, seconds: 0)], toolVersion: "t").utf8), file: "r.json")
            let rows = try #require(report.sections.first).clauses
            #expect(rows.first { $0.clause == cited }?.checks == ["member bob: chats"], "\(profile)")
            #expect(rows.count == (profile == .standard ? 2 : 1), "\(rows.map(\.clause))")
        }
    }

    /// The standing line: a failing run, an unexpected pass, or a missing required capability each
    /// make the section FAIL, with every reason said; all passes are PASS.
    @Test func theStandingSaysWhyAnEngineIsNotCertified() throws {
        func section(_ runs: [ScenarioRun]) throws -> Certification.Section {
            let data = Data(try JSONReport.json(runs.map { TimedRun($0, seconds: 0) }, toolVersion: "t").utf8)
            return try #require(try Certification(json: data, file: "r.json").sections.first)
        }
        func run(_ verdict: Verdict, check: String = "converged", observed: String? = nil) -> ScenarioRun {
            ScenarioRun(
                scenario: "s", file: "scenarios/f/s.yaml", engine: "e", seed: 1,
                checks: [CheckResult(check: check, clause: Clause("MIP-03", "x"), verdict: verdict, observed: observed)], reproduce: "-")
        }
        #expect(try section([run(.pass), run(.info)]).standing == .certified)
        #expect(try section([run(.pass), run(.fail)]).standing == .notCertified(["1 run(s) failed"]))
        #expect(try section([run(.pass), run(.unexpectedPass)]).standing.line.contains("stale ledger"))
        let lacking = try section([
            run(.fail, check: ScenarioExecutor.requiredCapabilitiesCheck, observed: "missing: group.create, group.leave"),
            run(.fail, check: ScenarioExecutor.requiredCapabilitiesCheck, observed: "missing: group.create, profile.current"),
        ])
        #expect(lacking.missingCapabilities == ["group.create", "group.leave", "profile.current"])
        #expect(
            lacking.standing.line
                == "FAIL: the engine lacks capabilities the profile requires: group.create, group.leave, profile.current; 2 run(s) failed; no run passed"
        )
    }

    /// MUST checks are PASS/FAIL; a check of a rule the profile does not hold is characterized YES
    /// (the engine behaved as it expects) or NO, and never fails the section.
    @Test func checksOfRulesTheProfileDoesNotHoldAreCharacterized() throws {
        for (verdict, expected) in [(Verdict.pass, "YES"), (.fail, "NO")] {
            let check = CheckResult(
                check: "converged", clause: Clause("MIP-03", "Commit Message Race Conditions"), verdict: verdict,
                rule: .commitRaceByTimestamp)
            let run = MarmotProfile.current.judge(
                ScenarioRun(scenario: "race", file: "scenarios/r/r.yaml", engine: "e", seed: 1, checks: [check], reproduce: "-"))
            #expect(run.checks[0].verdict == .info && run.checks[0].characterized == (verdict == .pass))
            #expect(run.verdict == .pass)
            let data = Data(try JSONReport.json([TimedRun(run, seconds: 0)], toolVersion: "t").utf8)
            let section = try #require(try Certification(json: data, file: "r.json").sections.first)
            let row = try #require(section.clauses.first { $0.clause == "MIP-03 Commit Message Race Conditions" })
            #expect(row.characterized == expected && row.must == nil, "\(verdict)")
            #expect(section.standing == .certified)
        }
    }

    /// Every clause a shipped scenario cites names a spec document the report can date.
    @Test func specTextsNameTheVersionOfEveryDocumentClausesCite() throws {
        #expect(SpecTexts.document(of: "MIP-03 Commit Messages") == "MIP-03")
        #expect(SpecTexts.document(of: "NIP-44 Encryption limits") == "NIP-44")
        #expect(SpecTexts.document(of: "RFC 9420 §12.1.3") == "RFC 9420")
        #expect(SpecTexts.document(of: "Unheard-of 1") == nil)
        #expect(SpecTexts.version(of: "MIP-03", under: .legacy).contains("MDK 0.8.0"))
        #expect(SpecTexts.version(of: "MIP-03", under: .current).contains("adopted"))
        let report = try Certification(json: try Self.document(), file: "run.json")
        let texts = Certification.specTexts(try #require(report.sections.first))
        #expect(texts.map(\.document) == ["MIP-01", "MIP-02", "MIP-03", "NIP-01"])
        #expect(texts.allSatisfy { $0.version != "unknown" })
        #expect(report.markdown().contains("| NIP-01 | nostr-protocol/nips 01.md, master as of 2026-11 |"))
    }

    @Test func familiesComeFromTheFolderUnderScenarios() {
        #expect(Certification.family(of: "scenarios/roles/matrix/x.yaml") == "roles")
        #expect(Certification.family(of: "/abs/scenarios/hostile/a.yaml") == "hostile")
        #expect(Certification.family(of: "scenarios/top.yaml") == "(top level)")
        #expect(Certification.family(of: "elsewhere.yaml") == "(top level)")
    }
}
