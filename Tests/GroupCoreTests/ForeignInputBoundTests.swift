import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// Records of a channel that grow with what strangers send are bounded (docs/group-core.md,
/// "Bounds on what the core keeps"): a chat relay's early join requests for one channel, and a
/// subscriber's reasons for refusing a relay's forwarded broadcasts.
@Suite struct ForeignInputBoundTests {
    static func key(_ seed: UInt64) -> PublicKey {
        var generator = TestGenerator(seed: seed)
        return Keypair.generate(using: &generator).publicKey
    }

    /// Join requests under ever new keys for a channel the relay does not serve yet: the first
    /// `maximumEarlyRequesters` are kept, the rest turned away.
    @Test func earlyJoinRequestsForOneChannelStopAtTheCap() async {
        var generator = TestGenerator(seed: 90)
        let keypair = Keypair.generate(using: &generator)
        let configuration = CoreConfiguration(
            keypair: keypair, profileName: "relay", discoveryRelays: [CoreHarness.discovery],
            keyPackageRelays: [CoreHarness.keyPackages], inboxRelays: [CoreHarness.inbox], groupRelays: [CoreHarness.group],
            behaviour: .init(publishesKeyPackage: false, chatRelay: .honest))
        let core = GroupCore(configuration: configuration, engine: RefusingEngine(), generator: TestGenerator(seed: 91))
        let requesters = (0..<(GroupCore.maximumEarlyRequesters + 20)).map { _ in Keypair.generate(using: &generator).publicKey }
        let kept = await core.earlyRequesters(afterRequestsFrom: requesters, channelID: "ab")
        #expect(kept == Array(requesters.prefix(GroupCore.maximumEarlyRequesters)))
    }

    /// A relay forwarding ever new forgeries: the channel keeps the newest reasons only.
    @Test func refusedBroadcastReasonsKeepTheNewest() {
        var record = ChannelRecord(
            channelID: "cd", name: "News", description: "", welcomeMessage: "", role: .subscriber, owners: [Self.key(92)],
            relays: [Self.key(93)])
        for n in 0..<(ChannelRecord.retainedRejections + 10) { record.noteRejected("reason \(n)") }
        #expect(record.rejectedBroadcasts.count == ChannelRecord.retainedRejections)
        #expect(record.rejectedBroadcasts.first == "reason 10")
        #expect(record.rejectedBroadcasts.last == "reason \(ChannelRecord.retainedRejections + 9)")
    }
}

extension GroupCore {
    /// Hands the chat relay one join request per requester for `channelID` and returns whom it keeps.
    fileprivate func earlyRequesters(afterRequestsFrom requesters: [PublicKey], channelID: String) -> [PublicKey] {
        for requester in requesters { relayReceivedJoinRequest(from: requester, channelID: channelID) }
        return channels.earlyRequests[channelID] ?? []
    }
}
