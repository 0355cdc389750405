import ConformanceTestSupport
import Foundation
import Nostr
import Testing

@testable import GroupCore

/// The core's memory of handled event ids (Relays/SeenEvents.swift): bounded, the oldest first to
/// go, and kept across a restart in a field that reads the same in files written before the cap.
@Suite struct SeenEventsTests {
    @Test func theOldestIdsGoFirstAndCopiesAreSpottedWithinTheCap() {
        var seen = SeenEvents()
        for n in 0..<10 {
            let fresh = seen.insert("id\(n)", cap: 4)
            #expect(fresh)
        }
        #expect(seen.count == 4)
        #expect(seen.oldestFirst == ["id6", "id7", "id8", "id9"])
        let copy = seen.insert("id9", cap: 4)
        #expect(!copy, "a copy of a recent event")
        let forgotten = seen.insert("id0", cap: 4)
        #expect(forgotten, "a forgotten id is new again")
        #expect(seen.oldestFirst == ["id7", "id8", "id9", "id0"])
    }

    /// Many times the cap: the order and the count stay right across the array's compaction.
    @Test func aLongStreamKeepsExactlyTheNewestIds() {
        var seen = SeenEvents()
        for n in 0..<10_000 { _ = seen.insert("id\(n)", cap: 100) }
        #expect(seen.count == 100)
        let newest = seen.oldestFirst == (9_900..<10_000).map { "id\($0)" }
        #expect(newest, "the last 100 ids, oldest first")
        #expect(!seen.contains("id9899"))
    }

    /// A saved list: repeats read once, only the newest `cap` kept (a file written before the cap
    /// may hold any number of ids).
    @Test func aSavedListIsReadOldestFirstAndCut() {
        let seen = SeenEvents(oldestFirst: ["a", "b", "a", "c", "d", "e"], cap: 3)
        #expect(seen.oldestFirst == ["c", "d", "e"])
    }

    static func core(seed: UInt64, retained: Int) -> (GroupCore, Keypair) {
        var generator = TestGenerator(seed: seed)
        let keypair = Keypair.generate(using: &generator)
        var behaviour = CoreConfiguration.Behaviour(publishesKeyPackage: false)
        behaviour.retainedEventIDs = retained
        let configuration = CoreConfiguration(
            keypair: keypair, profileName: "me", discoveryRelays: [CoreHarness.discovery],
            keyPackageRelays: [CoreHarness.keyPackages], inboxRelays: [CoreHarness.inbox], groupRelays: [CoreHarness.group],
            behaviour: behaviour)
        return (GroupCore(configuration: configuration, engine: RefusingEngine(), generator: TestGenerator(seed: seed ^ 1)), keypair)
    }

    /// The saved state's `seenEvents`, as the file holds it.
    static func savedIDs(_ core: GroupCore) async throws -> [String] {
        let bytes = try await core.snapshot().encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        return try #require(object["seenEvents"] as? [String])
    }

    /// A relay that sends ever new events (here on our inbox subscription, of a kind the core
    /// ignores) grows neither the core's memory nor its saved state past the cap: without the cap
    /// the state holds every id.
    @Test func aFloodOfNewEventsStaysWithinTheCapInTheSavedState() async throws {
        let (core, _) = Self.core(seed: 70, retained: 8)
        var generator = TestGenerator(seed: 71)
        let now: UInt64 = 1_700_000_000
        _ = await core.handle(.start, now: now)
        var ids: [String] = []
        for n in 0..<20 {
            let author = Keypair.generate(using: &generator)
            let event = try UnsignedEvent(pubkey: author.publicKey, createdAt: now, kind: .textNote, content: "flood \(n)")
                .signed(with: author, using: &generator)
            ids.append(event.id.hex)
            _ = await core.handle(
                .relay(url: CoreHarness.inbox, message: .event(subscription: GroupCore.inboxSubscription, event: event)), now: now)
        }
        let saved = try await Self.savedIDs(core)
        #expect(saved.count == 8)
        #expect(saved == Array(ids.suffix(8)), "the newest ids, oldest first")
    }

    /// A file written before the cap holds the ids as a JSON array in hash order: it still reads,
    /// cut to the cap, and a restarted core spots a copy of an id it kept.
    @Test func aStateWrittenBeforeTheCapIsReadAndCut() async throws {
        let (core, _) = Self.core(seed: 72, retained: 8)
        _ = await core.handle(.start, now: 1_700_000_000)
        let bytes = try await core.snapshot().encoded()
        var object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let old = (0..<12).map { String(format: "%064x", $0) }
        object["seenEvents"] = old
        let file = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        let snapshot = try CoreSnapshot(decoding: file)
        let (restarted, _) = Self.core(seed: 72, retained: 8)
        try await restarted.restore(snapshot)
        #expect(try await Self.savedIDs(restarted) == Array(old.suffix(8)))
    }
}
