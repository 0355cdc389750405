import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The role table judges the member an entry acts on as the table's order stands at that entry,
/// not by today's admin list nor by the list its receiver held when reading it: a change an admin
/// made to a member stays valid when that member is promoted to admin later, whatever order the
/// events arrived in (replayed after catch-up or reordered delivery, every member gives one answer).
@Suite struct RoleAdminHistoryTests {
    static let keys: [PublicKey] = {
        var generator = TestGenerator(seed: 0xAD31)
        return (0..<3).map { _ in Keypair.generate(using: &generator).publicKey }
    }()
    static var owner: PublicKey { keys[0] }
    static var admin: PublicKey { keys[1] }
    static var bob: PublicKey { keys[2] }

    private func entry(_ id: String, by actor: PublicKey, at: UInt64, admins: Set<PublicKey>, _ body: ControlMessage.Body) -> RoleEntry {
        RoleEntry(eventID: id, rumorID: id, actor: actor, admins: admins, at: at, content: .control(body))
    }

    /// The admin made bob a moderator while bob was a member; the owner promoted bob afterwards.
    /// `lateRead`: the receiver read the admin's change only after merging the promotion commit
    /// (an old epoch's secrets), so the admin list it held then already names bob.
    private func promotedLater(inOrder: Bool, lateRead: Bool) -> RoleBook {
        var book = RoleBook()
        book.creator = Self.owner
        // The creator's creation snapshot ranks every founding member (bob a member).
        let ranks: [PublicKey: Role] = [Self.owner: .owner, Self.admin: .member, Self.bob: .member]
        book.add(
            entry(
                "created", by: Self.owner, at: 1, admins: [Self.owner],
                .snapshot(roles: ranks, blocked: [], link: nil, preferences: nil, status: [:])))
        let heldThen: Set<PublicKey> = lateRead ? [Self.owner, Self.admin, Self.bob] : [Self.owner, Self.admin]
        let moderate = entry("moderate", by: Self.admin, at: 10, admins: heldThen, .setRole(target: Self.bob, role: .moderator))
        let promote = entry("promote", by: Self.owner, at: 20, admins: [Self.owner, Self.admin], .setRole(target: Self.bob, role: .admin))
        for added in inOrder ? [moderate, promote] : [promote, moderate] { book.add(added) }
        book.add(entry("admin-role", by: Self.owner, at: 5, admins: [Self.owner], .setRole(target: Self.admin, role: .admin)))
        return book
    }

    @Test(arguments: [(true, false), (false, false), (true, true), (false, true)])
    func aChangeBeforeThePromotionStaysValid(inOrder: Bool, lateRead: Bool) {
        let view = promotedLater(inOrder: inOrder, lateRead: lateRead)
            .view(admins: [Self.owner, Self.admin, Self.bob], disabled: [], now: 100)
        #expect(view.rejections.map(\.reason) == [])
        #expect(view.role(of: Self.bob) == .admin)
    }

    /// Twin: the same change made once bob is an admin is refused, whatever list the receiver
    /// held when it read it.
    @Test(arguments: [false, true])
    func aChangeAfterThePromotionIsRefused(lateRead: Bool) {
        var book = promotedLater(inOrder: true, lateRead: false)
        let heldThen: Set<PublicKey> = lateRead ? [Self.owner, Self.admin] : [Self.owner, Self.admin, Self.bob]
        book.add(entry("too-late", by: Self.admin, at: 30, admins: heldThen, .setRole(target: Self.bob, role: .member)))
        let view = book.view(admins: [Self.owner, Self.admin, Self.bob], disabled: [], now: 100)
        #expect(view.rejections.map(\.reason) == [PermissionCheck.targetNotBelow.reason])
        #expect(view.role(of: Self.bob) == .admin)
    }

    /// A demotion is an entry of the order too: a change made to an admin before it was demoted
    /// stays refused after the demotion.
    @Test func aChangeBeforeADemotionStaysRefused() {
        var book = promotedLater(inOrder: true, lateRead: false)
        book.add(entry("forged", by: Self.admin, at: 30, admins: [Self.owner, Self.admin, Self.bob], .block(Self.bob)))
        book.add(
            entry("demote", by: Self.owner, at: 40, admins: [Self.owner, Self.admin, Self.bob], .setRole(target: Self.bob, role: .member)))
        let view = book.view(admins: [Self.owner, Self.admin], disabled: [], now: 100)
        #expect(view.rejections.map(\.reason) == [PermissionCheck.blockTargetNotBelow.reason])
        #expect(view.blocked.isEmpty)
    }
}
