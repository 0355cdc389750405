import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The channel bookkeeping on its own: profiles read from untrusted group descriptions, the link
/// that exists only once a relay is active, and the "N/M relays connected" summary.
@Suite struct ChannelRecordTests {
    static func key(_ seed: UInt64) -> PublicKey {
        var generator = TestGenerator(seed: seed)
        return Keypair.generate(using: &generator).publicKey
    }

    @Test func profilesRoundTripAndOrdinaryDescriptionsAreNotChannels() throws {
        let profile = ChannelProfile(channelID: "ab", description: "daily \"news\"", welcomeMessage: "hi\nthere")
        #expect(ChannelProfile(parsing: profile.serialized()) == profile)
        for text in ["", "a plain group description", "{", "[]", "{\"marmot_channel\": 3}", "{\"description\": \"x\"}"] {
            #expect(ChannelProfile(parsing: text) == nil, "\(text)")
        }
    }

    @Test func linkExistsOnceARelayIsActiveAndSummaryCountsServingRelays() {
        let owner = Self.key(81)
        let relays = [Self.key(82), Self.key(83), Self.key(84)]
        var record = ChannelRecord(
            channelID: "cd", name: "News", description: "", welcomeMessage: "", role: .owner, owners: [owner], relays: relays)
        for relay in relays { record.setStatus(.invited, of: relay) }
        #expect(record.state.link == nil)
        #expect(record.state.connectedSummary == "0/3 relays connected")
        record.setStatus(.accepted, of: relays[0])
        #expect(record.state.link == nil, "accepted is not yet serving")
        record.setStatus(.active, of: relays[1])
        record.setStatus(.failed, of: relays[2], failure: "timeout")
        #expect(record.state.link == ChannelLink(channelID: "cd", name: "News", owners: [owner], relays: relays))
        #expect(record.state.connectedSummary == "1/3 relays connected, 1 failed", "the product's status line names failed relays")
        #expect(record.state.relays.map(\.status) == [.accepted, .active, .failed])
        #expect(record.state.relays[2].failure == "timeout")

        var subscriber = ChannelRecord(
            channelID: "cd", name: "News", description: "", welcomeMessage: "", role: .subscriber, owners: [owner], relays: relays)
        subscriber.setStatus(.joined, of: relays[0])
        subscriber.setStatus(.joined, of: relays[2])
        #expect(subscriber.state.link == nil, "only owners hand out links")
        #expect(subscriber.state.connectedSummary == "2/3 relays connected")
    }
}
