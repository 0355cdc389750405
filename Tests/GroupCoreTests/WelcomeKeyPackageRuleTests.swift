import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// Issue 30, N12, the core's rule alone: a welcome rumor's one `e` tag names one of our
/// key-package events and, when the engine says which key package opened the Welcome, that one.
/// (CoreReceiverCheckTests in SimulationTests runs the attack end to end.)
@Suite struct WelcomeKeyPackageRuleTests {
    static let first = String(repeating: "a1", count: 32)
    static let second = String(repeating: "b2", count: 32)

    static func rumor(_ tags: [[String]]) -> UnsignedEvent {
        var generator = TestGenerator(seed: 3012)
        return UnsignedEvent(pubkey: Keypair.generate(using: &generator).publicKey, createdAt: 1, kind: .welcome, tags: tags, content: "")
    }

    @Test func theTagNamesTheKeyPackageTheWelcomeOpenedWith() async {
        let harness = CoreHarness(seed: 3012)
        await harness.core.holdOwnKeyPackages([Self.first: "01ab", Self.second: "02cd"])
        let core = harness.core
        #expect(await core.keyPackageRefusal(of: Self.rumor([["e", Self.first]]), opened: "01ab") == nil)
        #expect(await core.keyPackageRefusal(of: Self.rumor([["e", Self.first.uppercased()]]), opened: nil) == nil)
        // Another of our key packages than the one the Welcome is for.
        let other = await core.keyPackageRefusal(of: Self.rumor([["e", Self.second]]), opened: "01ab")
        #expect(other?.contains("is for our key package 01ab") == true, "\(other ?? "nil")")
        let foreign = await core.keyPackageRefusal(of: Self.rumor([["e", String(repeating: "c3", count: 32)]]), opened: nil)
        #expect(foreign?.contains("none of our key-package events") == true)
        #expect(await core.keyPackageRefusal(of: Self.rumor([]), opened: nil)?.contains("0 e tag") == true)
        #expect(
            await core.keyPackageRefusal(of: Self.rumor([["e", Self.first], ["e", Self.second]]), opened: nil)?.contains("2 e tag") == true)
        #expect(await core.keyPackageRefusal(of: Self.rumor([["e"]]), opened: nil) != nil)
        await CoreReceiverCheck.$disabled.withValue([.welcomeKeyPackageEvent]) {
            #expect(await core.keyPackageRefusal(of: Self.rumor([["e", Self.second]]), opened: "01ab") == nil)
        }
    }

    /// A core that published no key package (or whose state predates the map) leaves the Welcome
    /// to the engine.
    @Test func withoutOwnKeyPackagesTheEngineDecides() async {
        let harness = CoreHarness(seed: 3013)
        #expect(await harness.core.keyPackageRefusal(of: Self.rumor([]), opened: nil) == nil)
    }
}

extension GroupCore {
    /// Tests only: our key-package events as if published.
    func holdOwnKeyPackages(_ own: [String: String]) { keyPackageLookups.own = own }
}
