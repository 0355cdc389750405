import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import MLS
import Marmot
import NativeSwiftEngine
import Nostr
import Testing

/// Figures for docs/findings/welcome-size-limits.md: what a welcome is made of, per group size.
@Suite struct WelcomeSizeBench {
    @Test(arguments: [10, 50, 100, 150]) func swiftWelcomeSizes(members: Int) async throws {
        var bench = MemberBench(seed: 77)
        let creator = bench.swiftMember("creator")
        var invitees: [Member] = []
        for index in 1..<members { invitees.append(bench.swiftMember("m\(index)")) }
        try await Self.measure(engine: "swift", members: members, creator: creator, invitees: invitees, bench: &bench)
    }

    @Test(.enabled(if: MDK.isAvailable), arguments: [10, 50, 100, 150]) func mdkWelcomeSizes(members: Int) async throws {
        let driver = try await MDK.launch()
        var bench = MemberBench(seed: 78, now: MemberBench.fixedTime)
        let creator = try await bench.mdkMember("creator", in: driver)
        var invitees: [Member] = []
        for index in 1..<members { invitees.append(try await bench.mdkMember("m\(index)", in: driver)) }
        try await Self.measure(engine: "mdk", members: members, creator: creator, invitees: invitees, bench: &bench)
    }

    /// Bulk creation with every invitee, then (in a second group) creation with all but the last
    /// and one add commit for the last: the smallest welcome a group of this size can have.
    static func measure(engine: String, members: Int, creator: Member, invitees: [Member], bench: inout MemberBench) async throws {
        var keyPackages: [Event] = []
        for invitee in invitees { keyPackages.append(try await bench.keyPackage(of: invitee)) }
        let created = try await creator.engine.createGroup(
            GroupCreation(
                creator: creator.pubkey, keyPackages: keyPackages, name: "Scale", relays: MemberBench.relays, admins: [creator.pubkey]))
        let rumor = try #require(created.welcomeRumors.first)
        let welcome = try WelcomeRumor.parse(rumor).welcome
        #expect(welcome.secrets.count == members - 1)
        let secrets = try welcome.secrets.map { try tlsEncoded($0).count }.reduce(0, +)
        print("\(engine) bulk \(members): " + figures(rumor: rumor, secrets: secrets, groupInfo: welcome.encryptedGroupInfo.count))

        var fresh: [Event] = []
        for invitee in invitees { fresh.append(try await bench.keyPackage(of: invitee)) }
        let smaller = try await creator.engine.createGroup(
            GroupCreation(
                creator: creator.pubkey, keyPackages: Array(fresh.dropLast()), name: "Scale", relays: MemberBench.relays,
                admins: [creator.pubkey]))
        let add = try await creator.engine.addMembers(to: smaller.group.mlsGroupID, keyPackages: [fresh[fresh.count - 1]])
        let single = try #require(add.welcomeRumors.first)
        let one = try WelcomeRumor.parse(single).welcome
        #expect(one.secrets.count == 1)
        let oneSecret = try tlsEncoded(one.secrets[0]).count
        print("\(engine) add-one \(members): " + figures(rumor: single, secrets: oneSecret, groupInfo: one.encryptedGroupInfo.count))
    }

    /// The layer sizes (exact: `GiftWrap.sizes`, with NIP-44's extended prefix where a layer's
    /// plaintext passes 65,535 bytes) and which relay limits the wrap meets.
    static func figures(rumor: UnsignedEvent, secrets: Int, groupInfo: Int) -> String {
        let sizes = GiftWrap.sizes(rumorJSONBytes: rumor.rumorJSON().utf8.count)
        return "secrets \(secrets) B, encrypted GroupInfo \(groupInfo) B, base64 content \(rumor.content.utf8.count) B, "
            + "rumor JSON \(sizes.rumor) B, seal JSON \(sizes.seal) B (wrap's NIP-44 plaintext), wrap JSON \(sizes.wrap) B; "
            + "2-byte NIP-44 prefix: \(sizes.fitsCompactNIP44 ? "yes" : "no"), "
            + "64 KiB relay: \(sizes.fits(maximumEventBytes: 65_536) ? "fits" : "no"), "
            + "128 KiB relay: \(sizes.fits(maximumEventBytes: 131_072) ? "fits" : "no")"
    }
}
