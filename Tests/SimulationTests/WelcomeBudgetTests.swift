import ConformanceTestSupport
import EngineInterface
import NativeSwiftEngine
import Nostr
import Testing

@testable import GroupCore

/// The welcome budget GroupCore splits invitations by: its rumor limit is exactly the largest
/// rumor a 64 KiB relay stores after NIP-59 wrapping, and its creation estimate, checked against
/// real welcomes of our engine, keeps every welcome within it without wasting much room.
struct WelcomeBudgetTests {
    static let now: UInt64 = 1_795_300_000

    @Test func rumorLimitIsTheLargestThatWrapsWithinTheRelayLimit() {
        let budget = WelcomeBudget(maximumEventBytes: 65_536)
        #expect(GiftWrap.sizes(rumorJSONBytes: budget.maximumRumorBytes).fits(maximumEventBytes: 65_536))
        #expect(!GiftWrap.sizes(rumorJSONBytes: budget.maximumRumorBytes + 1).fits(maximumEventBytes: 65_536))
        // Without a relay limit, NIP-44 alone binds: the seal's JSON must stay within our plaintext bound.
        let unlimited = WelcomeBudget(maximumEventBytes: .max)
        #expect(unlimited.maximumRumorBytes > budget.maximumRumorBytes)
        #expect(GiftWrap.sizes(rumorJSONBytes: unlimited.maximumRumorBytes).fitsNIP44)
        #expect(!GiftWrap.sizes(rumorJSONBytes: unlimited.maximumRumorBytes + 1).fitsNIP44)
    }

    @Test func creationEstimateKeepsWelcomesWithinTheBudgetAndNearIt() async throws {
        var generator = TestGenerator(seed: 41)
        let creator = Keypair.generate(using: &generator)
        let engine = NativeSwiftEngine(generator: TestGenerator(seed: 42), clock: { Self.now })
        var keyPackages: [Event] = []
        for _ in 0..<80 {
            let invitee = Keypair.generate(using: &generator)
            let inviteeEngine = NativeSwiftEngine(generator: TestGenerator(seed: generator.next()), clock: { Self.now })
            let draft = try await inviteeEngine.createKeyPackage(for: invitee.publicKey, relays: ["wss://kp.test"], protected: false)
            keyPackages.append(
                try draft.unsignedEvent(author: invitee.publicKey, createdAt: Self.now).signed(with: invitee, using: &generator))
        }
        let budget = WelcomeBudget(maximumEventBytes: 65_536)
        let count = WelcomeBudget.creationBatchSize(
            keyPackages: keyPackages, budgets: Array(repeating: budget, count: keyPackages.count), groupDataBytes: 300)
        #expect(count > 1 && count < 80)
        // A 128 KiB inbox (nostr-rs-relay's documented limit) lets more in; one tight inbox among
        // them caps the commit at what fits that invitee, since a commit's welcomes are one size.
        let large = WelcomeBudget(maximumEventBytes: 131_072)
        let largeCount = WelcomeBudget.creationBatchSize(
            keyPackages: keyPackages, budgets: Array(repeating: large, count: keyPackages.count), groupDataBytes: 300)
        #expect(largeCount > count)
        var mixed = Array(repeating: large, count: keyPackages.count)
        mixed[count / 2] = budget
        #expect(WelcomeBudget.creationBatchSize(keyPackages: keyPackages, budgets: mixed, groupDataBytes: 300) == count)

        func largestRumor(_ invitees: Int) async throws -> Int {
            let created = try await engine.createGroup(
                GroupCreation(
                    creator: creator.publicKey, keyPackages: Array(keyPackages.prefix(invitees)), name: "Budget",
                    relays: ["wss://group.test"], admins: [creator.publicKey]))
            return created.welcomeRumors.map { $0.rumorJSON().utf8.count }.max() ?? 0
        }
        #expect(try await largestRumor(count) <= budget.maximumRumorBytes, "the estimate let an oversized welcome through")
        // Not needlessly small: a tenth more invitees no longer fit.
        #expect(try await largestRumor(min(80, count + count / 10 + 1)) > budget.maximumRumorBytes)
        #expect(try await largestRumor(largeCount) <= large.maximumRumorBytes, "the estimate let an oversized welcome through")
    }

    /// A 128 KiB relay takes a wrap whose seal needs NIP-44's extended length prefix, up to the
    /// padding step that would push the wrap past 131,072 bytes: rumors of up to 57,344 bytes
    /// (padded to 57,344, sealed in 76,9xx bytes, wrapped in 109,7xx); the next step (65,536)
    /// makes a 131,5xx-byte wrap.
    @Test func aLargeRelayTakesWrapsWithTheExtendedPrefix() {
        let budget = WelcomeBudget(maximumEventBytes: 131_072)
        #expect(budget.maximumRumorBytes == 57_344)
        let sizes = GiftWrap.sizes(rumorJSONBytes: budget.maximumRumorBytes)
        #expect(sizes.fits(maximumEventBytes: 131_072) && !sizes.fitsCompactNIP44)
        #expect(!GiftWrap.sizes(rumorJSONBytes: budget.maximumRumorBytes + 1).fits(maximumEventBytes: 131_072))
        // The 64 KiB budget is what it was before the extended prefix existed.
        #expect(WelcomeBudget(maximumEventBytes: 65_536).maximumRumorBytes == 28_672)
    }
}
