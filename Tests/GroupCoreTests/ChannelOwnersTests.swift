import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The owners' leave rules (003) and the owner's deleted chat (001 §9), on their own; the
/// scenarios `channel-relay-joins/co-owner-leaves.yaml` and `roles/owner-deleted-chat-removed.yaml`
/// show them end to end.
@Suite struct ChannelOwnersTests {
    static let keypairs: [Keypair] = {
        var generator = TestGenerator(seed: 0x0E3)
        return (0..<3).map { _ in Keypair.generate(using: &generator) }
    }()
    static let channelID = String(repeating: "c1", count: 32)

    /// An owner list signed by `signer`, naming `owners`, for `channel`.
    private func list(by signer: Keypair, naming owners: [PublicKey], channel: String = channelID) throws -> String {
        var generator = TestGenerator(seed: 7)
        let content = JSONValue.object(["owners": .array(owners.map { .string($0.hex) })]).serialized()
        return try UnsignedEvent(
            pubkey: signer.publicKey, createdAt: 1_700_000_000, kind: .channelOwners, tags: [["h", channel]], content: content
        )
        .signed(with: signer, using: &generator).json()
    }

    private var owners: [PublicKey] { Self.keypairs.map(\.publicKey) }

    @Test func anOwnerTakesItselfOut() throws {
        let content = try list(by: Self.keypairs[1], naming: [owners[0], owners[2]])
        let update = GroupCore.remainingOwners(content, channelID: Self.channelID, owners: owners)
        #expect(update?.signer == owners[1])
        #expect(update?.owners == [owners[0], owners[2]])
    }

    /// Taking another owner out, keeping oneself, adding someone, an empty list, another channel
    /// or a signer who is no owner are all refused.
    @Test func nothingElseChangesTheOwners() throws {
        var generator = TestGenerator(seed: 0x5E7)
        let stranger = Keypair.generate(using: &generator)
        let refused = [
            try list(by: Self.keypairs[1], naming: [owners[1], owners[2]]),
            try list(by: Self.keypairs[1], naming: owners),
            try list(by: Self.keypairs[1], naming: [owners[0], owners[2], stranger.publicKey]),
            try list(by: stranger, naming: owners),
            try list(by: Self.keypairs[1], naming: [owners[0], owners[2]], channel: String(repeating: "c2", count: 32)),
        ]
        for content in refused {
            #expect(GroupCore.remainingOwners(content, channelID: Self.channelID, owners: owners) == nil)
        }
        let last = try list(by: Self.keypairs[0], naming: [])
        #expect(GroupCore.remainingOwners(last, channelID: Self.channelID, owners: [owners[0]]) == nil)
    }

    /// The role view says which owner's deletion counted, so only that owner's chat list drops it.
    @Test func theDeletingOwnerIsRecorded() {
        var book = RoleBook()
        book.creator = owners[0]
        book.add(
            RoleEntry(
                eventID: "d", rumorID: "d", actor: owners[0], admins: [owners[0]], at: 100,
                content: .control(.deleteGroup(keepHistory: true))))
        #expect(book.view(admins: [owners[0]], disabled: [], now: 200).deletedBy == owners[0])
        // A deletion the table refuses (a member is no owner) records nobody.
        var refused = RoleBook()
        refused.creator = owners[0]
        refused.add(
            RoleEntry(
                eventID: "d", rumorID: "d", actor: owners[1], admins: [owners[0]], at: 100,
                content: .control(.deleteGroup(keepHistory: true))))
        #expect(refused.view(admins: [owners[0]], disabled: [], now: 200).deletedBy == nil)
    }
}
