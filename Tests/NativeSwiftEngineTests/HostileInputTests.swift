import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Marmot
import Nostr
import Testing

@testable import NativeSwiftEngine

/// Hostile input reaches the engine as typed outcomes, never a trap or a state change.
@Suite struct HostileInputTests {
    /// Mutants of a genuine commit's MLS bytes, re-sealed under the right key so they pass the outer
    /// layer, must all be refused without moving the receiver; the genuine commit still applies after.
    @Test func mutatedCommitsAreRefusedWithoutStateChange() async throws {
        var bench = MemberBench(seed: 20)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let group = try await bench.createGroup(by: alice, inviting: [bob], name: "H", admins: [alice])
        let rename = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "renamed"))
        let receiver = try #require(bob.engine as? NativeSwiftEngine)
        let record = try #require(await receiver.groups[group])
        let key = GroupEventKey.of(record.mls)
        let genuine = try GroupEventCipher.open(rename.event.content, key: key)
        var generator = TestGenerator(seed: 21)
        for mutant in Mutations.mutants(of: genuine, count: 150, using: &generator) + Mutations.properPrefixes(of: genuine).map(Array.init)
        where mutant != genuine {
            let event = try GroupEventEnvelope.make(
                nostrGroupID: record.data.nostrGroupID, content: try GroupEventCipher.seal(mutant, key: key, using: &generator),
                createdAt: bench.keyPackageTime, using: &generator)
            let result = try await bob.engine.processMessage(event)
            if case .commit = result { Issue.record("a mutated commit was applied") }
        }
        #expect(try await bob.engine.epoch(of: group) == 1)
        try await MemberBench.commit(rename, by: alice, to: [bob])
        #expect(try await bob.engine.group(group).name == "renamed")
    }

    /// Mutated welcome contents are refused with a typed error and leave nothing pending.
    @Test func mutatedWelcomesAreRefused() async throws {
        var bench = MemberBench(seed: 22)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [try await bench.keyPackage(of: bob)], name: "W", relays: MemberBench.relays,
                admins: [alice.pubkey]))
        let rumor = created.welcomeRumors[0]
        let bytes = try Base64Content.decode(rumor.content)
        var generator = TestGenerator(seed: 23)
        for (index, mutant) in Mutations.mutants(of: bytes, count: 60, using: &generator).enumerated() {
            var hostile = rumor
            guard mutant != bytes else { continue }
            hostile.content = Base64Content.encode(mutant)
            let wrapper = try EventID(bytes: [UInt8](repeating: UInt8(index), count: 32))
            do {
                _ = try await bob.engine.processWelcome(wrapperID: wrapper, rumor: hostile)
                Issue.record("mutant \(index) was accepted")
            } catch {
                #expect([.invalidWelcome, .engineError].contains(error.code), "\(error)")
            }
        }
        #expect(try await bob.engine.pendingWelcomes().isEmpty)
        _ = try await bench.join(bob, rumor: rumor, from: alice, groupName: "W")
    }
}
