import ConformanceTestSupport
import EngineInterface
import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// Every rule of the app core with a test switch (GroupCore/KeyPackages/CoreReceiverCheck.swift)
/// has an attack it alone stops, run in a world of GroupCores on our engine: with every check on,
/// the target refuses it with the check's reason; with that one check off, it does not. Generates
/// the app-core part of docs/receiver-checks.md (`UPDATE_RECEIVER_CHECKS=1 swift test --filter
/// CoreReceiverCheckTests` rewrites it).
@Suite struct CoreReceiverCheckTests {
    struct Attack: Sendable {
        let name: String
        let expected: String
        let run: @Sendable () async throws -> String
    }

    static func attack(for check: CoreReceiverCheck) -> Attack {
        switch check {
        case .welcomeKeyPackageEvent:
            Attack(
                name:
                    "mallory's valid Welcome to bob into a fresh group of hers, its `e` tag naming an event that is none of "
                    + "bob's key packages (welcome-wrong-key-package-tag)",
                expected: "invalid_welcome"
            ) {
                try await bobsAnswer(to: .welcomeWrongKeyPackageTag, seed: 0x3012).answer
            }
        }
    }

    /// Bob's answer to mallory's Welcome `attack`: the reason he refused it with ("invalid_welcome"),
    /// or "joined" when he joined its group; and the refusal's detail.
    static func bobsAnswer(to attack: HostileAttack, seed: UInt64) async throws -> (answer: String, detail: String) {
        let world = NativeEngineWorldTests.makeWorld(seed: seed)
        for label in ["alice", "bob", "mallory"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob"), try world.key("mallory")], name: "Team", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let team = try await world.onlyChat(of: "mallory")
        let hostile = try #require(world.member("mallory")?.engine as? any HostileEngine)
        let bob = try world.key("bob")
        let traffic = try await hostile.forge(
            ForgeRequest(
                attack: attack, nostrGroupID: team.chatID, target: bob,
                targetKeyPackage: world.publishedEvents(kind: .keyPackage, by: "bob").last, sender: try world.key("mallory")))
        for rumor in traffic.welcomeRumors {
            _ = world.inject(try world.giftWrap(rumor, from: "mallory", to: bob), relay: "inbox", to: nil)
        }
        await world.runUntilQuiescent()
        let state = try await world.state(of: "bob")
        if let refusal = state.rejections.first(where: { $0.kind == .giftWrap }) { return (refusal.reason, refusal.detail) }
        return (state.chatList.count == 2 ? "joined" : "\(state.chatList.count) chats", "")
    }

    static func outcome(of attack: Attack, disabling check: CoreReceiverCheck? = nil) async -> String {
        await CoreReceiverCheck.$disabled.withValue(check.map { [$0] } ?? []) {
            do { return try await attack.run() } catch { return "\(error)" }
        }
    }

    @Test(arguments: CoreReceiverCheck.allCases)
    func eachCheckAloneStopsItsAttack(check: CoreReceiverCheck) async {
        let attack = Self.attack(for: check)
        #expect(await Self.outcome(of: attack) == attack.expected, "with every check on")
        #expect(await Self.outcome(of: attack, disabling: check) != attack.expected, "with \(check.rawValue) off")
    }

    /// The twin: the same Welcome with its `e` tag as sent (naming bob's key-package event) is
    /// joined, so the rule refuses only what it should (marmot#383's unsolicited Welcome).
    @Test func aWelcomeNamingTheKeyPackageItUsedIsJoined() async throws {
        #expect(try await Self.bobsAnswer(to: .unsolicitedWelcome, seed: 0x3013).answer == "joined")
    }

    /// A Welcome without an `e` tag is the core's refusal on every engine (the engine refuses it
    /// too, later and for its own reason: MIP-02's tag rule).
    @Test func aWelcomeWithoutItsTagIsRefusedByTheCoreFirst() async throws {
        let on = try await Self.bobsAnswer(to: .welcomeWithoutKeyPackageTag, seed: 0x3014)
        #expect(on.answer == "invalid_welcome")
        #expect(on.detail.contains("0 e tag"), "\(on.detail)")
        let off = try await CoreReceiverCheck.$disabled.withValue([.welcomeKeyPackageEvent]) {
            try await Self.bobsAnswer(to: .welcomeWithoutKeyPackageTag, seed: 0x3014)
        }
        #expect(off.answer == "invalid_welcome")
        #expect(!off.detail.contains("0 e tag"), "the engine's own refusal: \(off.detail)")
    }

    /// An impostor key package in bob's name (mdk#1910's class): the `e` tag names bob's real
    /// key-package event, the Welcome is sealed to a key package bob never held; refused, typed.
    @Test func aWelcomeForAKeyPackageBobNeverHeldIsRefused() async throws {
        let answer = try await Self.bobsAnswer(to: .welcomeForOtherKeyPackage, seed: 0x3015)
        #expect(answer.answer == "invalid_welcome")
        #expect(answer.detail.contains("none of our key packages"), "\(answer.detail)")
    }

    @Test func everySwitchHasAProofRow() throws {
        let rows = try GeneratedDocument.checkRows(
            .fromMarker, of: "docs/receiver-checks.md", marker: GeneratedDocument.appCoreChecksMarker)
        #expect(rows.map(\.check) == CoreReceiverCheck.allCases.map(\.rawValue))
        for row in rows { #expect(row.on != row.off, "\(row.check)") }
    }

    @Test func theListOfCoreChecksIsCurrent() async throws {
        let intro = [
            GeneratedDocument.appCoreChecksMarker,
            "",
            "Generated by `Tests/SimulationTests/CoreReceiverCheckTests.swift`. The rules GroupCore applies to",
            "what it receives, above every engine, each with a test switch",
            "(`Sources/GroupCore/KeyPackages/CoreReceiverCheck.swift`); for each, an attack run in a world of",
            "GroupCores on our engine, mallory's built by her engine's forgeries (`forge`) and gift-wrapped to",
            "bob: bob's answer with every check on, and with that one check off. A Welcome's `e` tag is the",
            "core's to check because the core signs our key-package events and alone knows their ids; it is",
            "compared with the key package the engine opened the Welcome with when the engine says which",
            "(ours does; MDK's driver does not, so there the tag must name a key package we published).",
        ]
        var rows: [GeneratedDocument.CheckRow] = []
        for check in CoreReceiverCheck.allCases {
            let attack = Self.attack(for: check)
            rows.append((check.rawValue, attack.name, await Self.outcome(of: attack), await Self.outcome(of: attack, disabling: check)))
        }
        let generated = GeneratedDocument.checkTable(intro: intro, rows: rows)
        let current = try GeneratedDocument.current(
            .fromMarker, of: "docs/receiver-checks.md", marker: GeneratedDocument.appCoreChecksMarker, generated: generated)
        #expect(current == generated)
    }
}
