import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The recovery rules that live in small GroupCore types, on their own (the world tests in
/// SimulationTests show them against faults).
@Suite struct RecoveryRuleTests {
    static let keys: [PublicKey] = {
        var generator = TestGenerator(seed: 0x5EC0)
        return (0..<2).map { _ in Keypair.generate(using: &generator).publicKey }
    }()
    static var owner: PublicKey { keys[0] }
    static var member: PublicKey { keys[1] }

    private func entry(_ id: String, by actor: PublicKey, at: UInt64, _ content: RoleEntry.Content) -> RoleEntry {
        RoleEntry(eventID: id, rumorID: id, actor: actor, admins: [Self.owner], at: at, content: content)
    }

    /// A book where the owner deleted the group at 100, with a message of the same second and
    /// one written later (by a member who had not heard of the deletion).
    private var book: RoleBook {
        var book = RoleBook()
        book.creator = Self.owner
        book.add(entry("before", by: Self.member, at: 90, .message))
        book.add(entry("same-second", by: Self.member, at: 100, .message))
        book.add(entry("delete", by: Self.owner, at: 100, .control(.deleteGroup(keepHistory: true))))
        book.add(entry("after", by: Self.member, at: 105, .message))
        book.add(entry("late-reaction", by: Self.member, at: 106, .reaction))
        return book
    }

    @Test func messagesStrictlyAfterADeletionAreHidden() {
        let view = book.view(admins: [Self.owner], disabled: [], now: 200)
        #expect(view.deletion == .historyKept)
        #expect(view.hidden == ["after", "late-reaction"])
    }

    @Test func withoutTheRuleLateMessagesStayShown() {
        let view = book.view(admins: [Self.owner], disabled: [], now: 200, hidesAfterDeletion: false)
        #expect(view.deletion == .historyKept)
        #expect(view.hidden.isEmpty)
    }

    @Test func aDeletionByANonOwnerHidesNothing() {
        var book = RoleBook()
        book.creator = Self.owner
        book.add(entry("delete", by: Self.member, at: 100, .control(.deleteGroup(keepHistory: true))))
        book.add(entry("after", by: Self.owner, at: 105, .message))
        let view = book.view(admins: [Self.owner], disabled: [], now: 200)
        #expect(view.deletion == nil && view.hidden.isEmpty)
    }

    /// Outbox-tracked purposes keep their identity when their outstanding relays change; commits
    /// never wait in the outbox.
    @Test func publishPurposesWaitForTheirRelays() {
        let welcome = PublishPurpose.welcome(invitee: Self.member, relays: ["a", "b"], outstanding: ["a", "b"], retries: 2)
        guard case .welcome(let invitee, let relays, let outstanding, let retries) = welcome.waiting(for: ["b"]) else {
            Issue.record("not a welcome any more")
            return
        }
        #expect(invitee == Self.member && relays == ["a", "b"] && outstanding == ["b"] && retries == 2)
        #expect(PublishPurpose.control(chatID: "c", outstanding: ["a"]).waiting(for: []).outstanding == [])
        #expect(PublishPurpose.commit(chatID: "c").outstanding == nil)
    }

    @Test func theOutboxKnowsWhatItHolds() throws {
        var generator = TestGenerator(seed: 0x5EC1)
        let keypair = Keypair.generate(using: &generator)
        let event = try UnsignedEvent(pubkey: keypair.publicKey, createdAt: 1, kind: .chatMessage, tags: [], content: "x")
            .signed(with: keypair, using: &generator)
        var outbox = Outbox()
        outbox.track(event)
        #expect(!outbox.isHolding(event.id.hex))
        outbox.hold(event, for: "wss://a")
        #expect(outbox.isHolding(event.id.hex) && outbox.isWaiting(for: "wss://a"))
        #expect(outbox.take(for: "wss://a").map(\.id) == [event.id])
        #expect(!outbox.isHolding(event.id.hex))
    }
}
