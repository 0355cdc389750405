import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import NativeSwiftEngine
import Nostr
import Testing

extension MemberBench {
    /// A fixed time for Swift-only tests (the KeyPackage lifetimes and 445 windows are relative to it).
    static let fixedTime: UInt64 = 1_795_300_000

    /// A bench whose native members all read one fixed clock (`keyPackageTime`).
    init(seed: UInt64, now: UInt64 = Self.fixedTime) { self.init(seed: seed, keyPackageTime: now) }

    /// A member running our engine, seeded from the bench so runs are reproducible; its clock reads
    /// `keyPackageTime`.
    mutating func swiftMember(_ name: String) -> Member {
        let keypair = Keypair.generate(using: &generator)
        let time = keyPackageTime
        let engine = NativeSwiftEngine(generator: TestGenerator(seed: generator.next()), clock: { time })
        return Member(name: name, keypair: keypair, engine: engine)
    }
}

extension MemberBench {
    /// `creator` makes a group with the key packages of `invitees` (welcomes in that order), and every
    /// invitee joins; returns the group's id.
    mutating func createGroup(
        by creator: Member, inviting invitees: [Member], name: String, admins: [Member], description: String = ""
    ) async throws -> MLSGroupID {
        var keyPackages: [Event] = []
        for invitee in invitees { keyPackages.append(try await keyPackage(of: invitee)) }
        for event in keyPackages { try await creator.engine.validateKeyPackage(event) }
        let created = try await creator.engine.createGroup(
            GroupCreation(
                creator: creator.pubkey, keyPackages: keyPackages, name: name, description: description,
                relays: Self.relays, admins: admins.map(\.pubkey)))
        #expect(created.welcomeRumors.count == invitees.count)
        #expect(created.group.epoch == (invitees.isEmpty ? 0 : 1))
        for (invitee, (rumor, keyPackage)) in zip(invitees, zip(created.welcomeRumors, keyPackages)) {
            #expect(rumor.tags.contains(["e", keyPackage.id.hex]))
            _ = try await join(invitee, rumor: rumor, from: creator, groupName: name)
        }
        return created.group.mlsGroupID
    }
}
