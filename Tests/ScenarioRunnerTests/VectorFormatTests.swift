import Foundation
import NativeSwiftEngine
import ScenarioModel
import ScenarioRunner
import Testing

/// Vector and fingerprint files carry a format version; a file of another version is refused with
/// the reason, and what `--update-vectors` cannot write fails the run. With the outcome schema's
/// rules (OutcomeSchema), which Observation and the vectors follow.
@Suite struct VectorFormatTests {
    static let outcome = Outcome.map(["alice": .map(["errors": .list([]), "chats": .list([])])])

    @Test func aVectorCarriesItsVersionAndReadsBack() throws {
        let text = VectorFormat.vectorText(Self.outcome)
        #expect(text.contains(#""format-version": 2"#))
        #expect(try VectorFormat.readVector(text, file: "v.json") == Self.outcome)
    }

    @Test func aVectorOfAnotherVersionIsRefused() throws {
        for text in [
            Self.outcome.json(),
            VectorFormat.vectorText(Self.outcome).replacingOccurrences(of: #""format-version": 2"#, with: #""format-version": 1"#),
        ] {
            let error = #expect(throws: ScenarioError.self) { try VectorFormat.readVector(text, file: "v.json") }
            #expect(error?.code == .formatVersion)
            #expect(error?.message.contains("this build reads format-version 2") == true, "\(String(describing: error))")
        }
    }

    @Test func fingerprintsCarryTheirVersionAndAnUnversionedFileIsRefused() throws {
        let entries = ["a swift seed 1": "00ff"]
        let data = try VectorFormat.fingerprintsData(entries)
        #expect(String(decoding: data, as: UTF8.self).contains(#""format-version" : 2"#))
        #expect(try VectorFormat.readFingerprints(data, file: "f.json") == entries)
        let old = Data(#"{ "a swift seed 1": "00ff" }"#.utf8)
        let error = #expect(throws: ScenarioError.self) { try VectorFormat.readFingerprints(old, file: "f.json") }
        #expect(error?.code == .formatVersion)
        let newer = Data(#"{ "format-version": 3, "fingerprints": {} }"#.utf8)
        #expect((#expect(throws: ScenarioError.self) { try VectorFormat.readFingerprints(newer, file: "f.json") })?.code == .formatVersion)
    }

    /// A plain run against an unversioned fingerprints file and vector is an error, not a pass.
    @Test func aRunAgainstOldFilesErrs() async throws {
        let directory = try RunnerTwinTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try Scenario(yaml: RunnerTwinTests.group, file: "scenarios/twins/vector.yaml")
        let runner = ConformanceRunner(executor: ScenarioExecutor(engines: RunnerTwinTests.swift, epochUnixSeconds: 1_700_000_000))
        _ = await runner.run([(scenario, text: RunnerTwinTests.group)], request: RunnerTwinTests.request(directory, update: true)) { _ in }
        let vector = directory.appendingPathComponent("twins-vector.json")
        let fingerprints = directory.appendingPathComponent("fingerprints.json")
        #expect(try String(contentsOf: vector, encoding: .utf8).contains(#""format-version": 2"#))
        // The same files as format 1 wrote them: no version.
        let stored = try VectorFormat.readVector(String(contentsOf: vector, encoding: .utf8), file: vector.path)
        try stored.json().write(to: vector, atomically: true, encoding: .utf8)
        let pins = try VectorFormat.readFingerprints(Data(contentsOf: fingerprints), file: fingerprints.path)
        try JSONEncoder().encode(pins).write(to: fingerprints)
        let runs = await runner.run([(scenario, text: RunnerTwinTests.group)], request: RunnerTwinTests.request(directory)) { _ in }
        let checks = try #require(runs.first?.checks)
        #expect(checks.first { $0.check == "stored vector twins-vector.json" }?.verdict == .error)
        #expect(checks.first { $0.check == "stored trace fingerprint" }?.verdict == .error)
        #expect(runs.first?.verdict == .error)
        // Its twin: rewritten, the same run passes both.
        _ = await runner.run([(scenario, text: RunnerTwinTests.group)], request: RunnerTwinTests.request(directory, update: true)) { _ in }
        let again = await runner.run([(scenario, text: RunnerTwinTests.group)], request: RunnerTwinTests.request(directory)) { _ in }
        #expect(again.first?.checks.first { $0.check == "stored vector twins-vector.json" }?.verdict == .pass)
        #expect(again.first?.checks.first { $0.check == "stored trace fingerprint" }?.verdict == .pass)
    }

    /// `--update-vectors` into a place that cannot be written fails the run (no `try?`).
    @Test func anUnwritableVectorFolderFailsTheRun() async throws {
        let directory = try RunnerTwinTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocker = directory.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let scenario = try Scenario(yaml: RunnerTwinTests.group, file: "scenarios/twins/vector.yaml")
        let runner = ConformanceRunner(executor: ScenarioExecutor(engines: RunnerTwinTests.swift, epochUnixSeconds: 1_700_000_000))
        let runs = await runner.run(
            [(scenario, text: RunnerTwinTests.group)],
            request: RunnerTwinTests.request(blocker.appendingPathComponent("vectors"), update: true)
        ) { _ in }
        let writes = runs.last?.checks.filter { $0.check == "write vectors" } ?? []
        #expect(writes.count == 2, "the fingerprints and the vector: \(writes)")
        #expect(writes.allSatisfy { $0.verdict == .error && $0.detail.contains("could not be written") })
        #expect(runs.first?.verdict == .error)
    }

    /// The schema's presence rules, as OutcomeFields applies them.
    @Test func presenceRulesAreApplied() {
        var member = OutcomeFields<OutcomeSchema.Member>()
        member.set(.roleRejections, .list([]))
        member.set(.openChat, nil)
        member.set(.errors, .list([]))
        #expect(member.fields["role-rejections"] == nil)
        #expect(member.fields["open-chat"] == .null)
        #expect(member.fields["errors"] == .list([]))
        member.set(.roleRejections, .list([.string("role.denied")]))
        #expect(member.fields["role-rejections"] == .list([.string("role.denied")]))
        var preferences = OutcomeFields<OutcomeSchema.Preferences>()
        preferences.set(.files, .bool(true))
        preferences.set(.voiceMessages, .bool(false))
        #expect(preferences.fields["files"] == nil && preferences.fields["voice-messages"] == .bool(false))
        var chat = OutcomeFields<OutcomeSchema.Chat>()
        chat.set(.image, nil)
        chat.set(.deleted, .string("kept"))
        #expect(chat.fields["image"] == nil && chat.fields["deleted"] == .string("kept"))
        #expect(OutcomeSchema.Member.absentValue(of: "join-results") == .list([]))
        #expect(OutcomeSchema.Member.absentValue(of: "errors") == .null)
        #expect(OutcomeSchema.Chat.absentValue(of: "history") == .list([]))
    }

    /// What vectors leave out is the table's expect-only fields (the lists ConformanceRunner kept before).
    @Test func expectOnlyFieldsAreTheTables() {
        #expect(OutcomeSchema.Member.expectOnly == ["busy", "chat-events", "chat-order", "open-chat", "route"])
        #expect(
            OutcomeSchema.Chat.expectOnly == [
                "description", "is-admin", "is-group", "last-message", "member-names", "member-npubs", "member-pictures", "others",
                "unread",
            ])
        #expect(OutcomeSchema.Notification.expectOnly == ["badge", "sound", "type"])
        #expect(OutcomeSchema.Channel.expectOnly == ["owners"] && OutcomeSchema.Preferences.expectOnly.isEmpty)
    }
}
