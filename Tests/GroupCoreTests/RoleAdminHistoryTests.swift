import ConformanceTestSupport
@testable import GroupCore
import Nostr
import Testing

/// The role table judges each entry with the Marmot admin list of its own epoch, not today's: a
/// change an admin made to a member stays valid when that member is promoted to admin later
/// (replayed after catch-up or reordered delivery, the fold must give every member one answer).
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
    private func promotedLater(inOrder: Bool) -> RoleBook {
        var book = RoleBook()
        book.creator = Self.owner
        let moderate = entry("moderate", by: Self.admin, at: 10, admins: [Self.owner, Self.admin], .setRole(target: Self.bob, role: .moderator))
        let promote = entry("promote", by: Self.owner, at: 20, admins: [Self.owner, Self.admin], .setRole(target: Self.bob, role: .admin))
        let seed = (inOrder ? [moderate, promote] : [promote, moderate])
        seed.forEach { book.add($0) }
        book.add(entry("admin-role", by: Self.owner, at: 5, admins: [Self.owner], .setRole(target: Self.admin, role: .admin)))
        return book
    }

    @Test(arguments: [true, false])
    func aChangeBeforeThePromotionStaysValid(inOrder: Bool) {
        let view = promotedLater(inOrder: inOrder).view(admins: [Self.owner, Self.admin, Self.bob], disabled: [], now: 100)
        #expect(view.rejections.map(\.reason) == [])
        #expect(view.role(of: Self.bob) == .admin)
    }

    /// Twin: the same change made once bob is an admin (in an epoch whose list names him) is refused.
    @Test func aChangeAfterThePromotionIsRefused() {
        var book = promotedLater(inOrder: true)
        book.add(entry("too-late", by: Self.admin, at: 30, admins: [Self.owner, Self.admin, Self.bob], .setRole(target: Self.bob, role: .member)))
        let view = book.view(admins: [Self.owner, Self.admin, Self.bob], disabled: [], now: 100)
        #expect(view.rejections.map(\.reason) == [PermissionCheck.targetNotBelow.reason])
        #expect(view.role(of: Self.bob) == .admin)
    }
}
