import ConformanceTestSupport
import DeterministicScheduler
import Foundation
import ScenarioModel
import ScenarioRunner
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Failures you can read: the whole trace in order, capsules that stay small, check names that
/// survive edits, selectors that did nothing reported, and a diagram of the run.
@Suite struct TraceDiagramTests {
    static let scenario = """
        name: diagram
        members: [{ label: alice }, { label: bob }]
        steps:
          - deliver: all
          - create-group: { by: alice, with: [bob], name: Team }
          - deliver: all
          - name: greeting
            send: { by: alice, text: hi }
          - deliver: all
          - name: bob has it
            check: { members: { bob: { chats: [{ name: Team, messages: ["alice: bye"] }] } } }

        """

    static func execute(_ yaml: String, file: String = "diagram.yaml") async throws -> Execution {
        let scenario = try Scenario(yaml: yaml, file: file)
        let executor = ScenarioExecutor(engines: OracleTests.engines, epochUnixSeconds: 1_700_000_000)
        return await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "-")
    }

    /// Member entry i goes after the first anchors[i] network entries; nothing is lost or reordered.
    @Test func mergedTraceFollowsTheAnchors() {
        var network = Trace()
        var members = Trace()
        for (index, time) in [10, 20, 30].enumerated() {
            network.record(at: VirtualInstant(microseconds: UInt64(time)), "arrive", "n\(index)", "")
        }
        members.record(at: VirtualInstant(microseconds: 20), "core", "m0", "")
        members.record(at: VirtualInstant(microseconds: 20), "core", "m1", "")
        let merged = RunTrace.merged(network: network, members: members, anchors: [2, 2])
        #expect(merged.map(\.subject) == ["n0", "n1", "m0", "m1", "n2"])
        #expect(RunTrace.merged(network: network, members: members, anchors: [0, 3]).map(\.subject) == ["m0", "n0", "n1", "n2", "m1"])
    }

    @Test func executionKeepsTheWholeTraceInOrder() async throws {
        let execution = try await Self.execute(Self.scenario)
        // The old capsule kept 80 lines; this run has several hundred entries, all of them.
        #expect(execution.trace.count > 80)
        #expect(zip(execution.trace, execution.trace.dropFirst()).allSatisfy { $0.micros <= $1.micros })
        #expect(Set(execution.trace.map(\.source)) == [.network, .members])
        #expect(
            execution.steps.map(\.title) == [
                "step 1 (deliver)", "step 2 (create-group)", "step 3 (deliver)", "step 'greeting'",
                "step 5 (deliver)", "step 'bob has it'",
            ])
        #expect(zip(execution.steps, execution.steps.dropFirst()).allSatisfy { $0.traceIndex <= $1.traceIndex })
    }

    /// A check's name is its identity (the ledger matches it): no file position, so moving lines
    /// keeps it; the position is in the detail.
    @Test func checkNamesSurviveInsertedLines() async throws {
        let before = try await Self.execute(Self.scenario)
        let after = try await Self.execute("# a comment that moves every line\n\n" + Self.scenario)
        let failing = before.run.checks.filter { $0.verdict == .fail }
        #expect(failing.map(\.check) == ["step 'bob has it': member bob: chats"])
        #expect(failing.first?.detail.contains("(at diagram.yaml:10:5)") == true)
        #expect(after.run.checks.filter { $0.verdict == .fail }.map(\.check) == failing.map(\.check))
        #expect(after.run.checks.filter { $0.verdict == .fail }.first?.detail.contains("(at diagram.yaml:12:5)") == true)
    }

    @Test func faultThatSelectedNothingIsReported() async throws {
        let yaml = Self.scenario.replacingOccurrences(
            of: "  - name: greeting\n",
            with: """
                  - name: drop bob's publications
                    fault: { apply: drop, member: bob, kind: 445 }
                  - name: greeting

                """)
        let run = try await Self.execute(yaml).run
        let note = run.checks.first { $0.check == "step 'drop bob's publications': fault selector matched" }
        #expect(note?.verdict == .info)
        #expect(note?.detail.contains("selected no frame") == true)
        // The same fault aimed at what bob receives acts, and is not reported.
        let acting = try await Self.execute(yaml.replacingOccurrences(of: "kind: 445 }", with: "kind: 445, direction: to-member }")).run
        #expect(!acting.checks.contains { $0.check.hasSuffix("fault selector matched") })
    }

    @Test func injectionThatReachedNobodyIsReported() async throws {
        let handed = Self.scenario.replacingOccurrences(
            of: "  - name: bob has it\n",
            with: """
                  - name: copy to bob
                    inject: { relay: group, to: bob, copy: { kind: 445, author: alice }, content: forged }
                  - name: bob has it

                """)
        #expect(!(try await Self.execute(handed).run.checks.contains { $0.check.hasSuffix("injected event reached its member") }))
        let cutOff = handed.replacingOccurrences(
            of: "  - name: copy to bob\n",
            with: """
                  - fault: { apply: partition, member: bob }
                  - name: copy to bob

                """)
        let note = try await Self.execute(cutOff).run.checks.first { $0.check == "step 'copy to bob': injected event reached its member" }
        #expect(note?.verdict == .info)
        #expect(note?.detail.contains("not connected") == true)
    }

    static func capsule(_ execution: Execution, padding: Int = 0) -> FailureCapsule {
        let filler = (0..<padding).map { TraceLine(micros: 0, source: .members, category: "core", subject: "alice", detail: "note \($0)") }
        return FailureCapsule(
            scenarioFile: "diagram.yaml", scenarioText: scenario, engine: "swift", engineVersions: ["swift": "0.1"], seed: 1,
            stepLog: execution.stepLog, trace: filler + execution.trace, steps: execution.steps, fingerprint: execution.run.fingerprint,
            failures: execution.run.checks.filter { $0.verdict == .fail }, reproduce: "-")
    }

    @Test func largeCapsulesAreGzippedAndReadBack() async throws {
        let execution = try await Self.execute(Self.scenario)
        let small = Self.capsule(execution)
        let (plain, plainName) = try small.encoded()
        #expect(plainName == "diagram-swift-seed1.capsule.json" && plain.first == UInt8(ascii: "{"))
        let large = Self.capsule(execution, padding: 5_000)
        let (packed, packedName) = try large.encoded()
        #expect(packedName == "diagram-swift-seed1.capsule.json.gz")
        #expect(packed.prefix(2) == Data([0x1F, 0x8B]))
        #expect(packed.count < (try large.json()).count / 5)
        #expect(try FailureCapsule(json: packed, file: packedName) == large)
        // A damaged stream is an error, not a crash.
        #expect(throws: ScenarioError.self) { try FailureCapsule(json: packed.prefix(packed.count / 2), file: "cut.gz") }
    }

    @Test func diagramHasLifelinesArrowsAndTheFailure() async throws {
        let capsule = Self.capsule(try await Self.execute(Self.scenario))
        let diagram = SequenceDiagram(capsule: capsule)
        let lifelines = ["alice", "bob", "discovery", "keypackages", "inbox", "group"]
        #expect(diagram.participants == lifelines)

        // Mermaid: parse the participants and arrows back.
        let lines = diagram.mermaid().split(separator: "\n").map(String.init)
        #expect(lines.first == "sequenceDiagram")
        var alias: [String: String] = [:]
        for line in lines where line.hasPrefix("    participant ") {
            let parts = line.dropFirst("    participant ".count).components(separatedBy: " as ")
            alias[parts[0]] = parts[1]
        }
        #expect(Set(alias.values) == Set(lifelines))
        let arrows = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":"), !line.contains("Note over") else { return nil }
            let head = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard let arrow = head.range(of: "->>") ?? head.range(of: "-x") else { return nil }
            return (alias[String(head[..<arrow.lowerBound])] ?? "?", alias[String(head[arrow.upperBound...])] ?? "?")
        }
        #expect(arrows.count > 20)
        #expect(arrows.allSatisfy { lifelines.contains($0.0) && lifelines.contains($0.1) })
        // alice's message reached the group relay, and the relay handed it to bob.
        #expect(lines.contains { $0.contains("P1->>P6: EVENT") && $0.contains("kind 445") })
        #expect(lines.contains { $0.contains("P6->>P2: EVENT") && $0.contains("kind 445") })
        let failureNote = try #require(lines.firstIndex { $0.contains("FAIL step 'bob has it': member bob: chats") })
        let stepNote = try #require(lines.firstIndex { $0.contains("Note over P1,P6: step 'bob has it'") })
        #expect(stepNote < failureNote)

        // HTML: well-formed, no script, one lifeline group per participant, as many arrows as Mermaid.
        let html = diagram.html()
        #expect(!html.lowercased().contains("<script"))
        let parsed = SVGCounter(html)
        #expect(parsed.ok, "the page is not well-formed: \(parsed.error ?? "")")
        #expect(parsed.lifelines == lifelines)
        #expect(parsed.arrows == arrows.count)
        #expect(parsed.failures == 1)
    }
}

/// Reads the diagram page as XML and counts what the SVG draws.
final class SVGCounter: NSObject, XMLParserDelegate {
    var lifelines: [String] = []
    var arrows = 0
    var failures = 0
    var ok = false
    var error: String?

    init(_ html: String) {
        super.init()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = self
        ok = parser.parse()
        error = parser.parserError.map { "\($0)" }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard name == "g", let classes = attributes["class"]?.split(separator: " ") else { return }
        if classes.contains("lifeline"), let lifeline = attributes["data-name"] { lifelines.append(lifeline) }
        if classes.contains("arrow") { arrows += 1 }
        if classes.contains("failure") { failures += 1 }
    }
}
