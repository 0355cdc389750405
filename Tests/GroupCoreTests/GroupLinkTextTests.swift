import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The shared link's grammar (Roles/GroupLinkText.swift): what an admin writes reads back whole,
/// and every malformed text is refused with `core.invalidLink`, never shown.
@Suite struct GroupLinkTextTests {
    static let admin: PublicKey = {
        var generator = TestGenerator(seed: 0x34_03)
        return Keypair.generate(using: &generator).publicKey
    }()
    static let token = "0123456789abcdef0123456789abcdef"

    @Test func aLinkReadsBackWhole() throws {
        let link = GroupLinkText(admin: Self.admin, token: Self.token, name: "Team & co / été?", memberCount: 12, expiresAt: 1_700_000_000)
        let text = link.text
        #expect(text.hasPrefix("marmot:join/npub1"))
        #expect(!text.contains(" ") && !text.contains("é"), "the name is percent-encoded: \(text)")
        #expect(try GroupLinkText(parsing: text) == link)
        let bare = GroupLinkText(admin: Self.admin, token: Self.token, name: nil, memberCount: nil)
        #expect(bare.text == "marmot:join/\(Self.admin.npub)/\(Self.token)")
        #expect(try GroupLinkText(parsing: bare.text) == bare)
    }

    @Test(arguments: [
        "",
        "https://example.test/join",
        "marmot:join/",
        "marmot:join/npub1notakey/0123456789abcdef0123456789abcdef",
        "marmot:join/NPUB/0123456789abcdef0123456789abcdef",
        "marmot:join/ADMIN/0123456789ABCDEF0123456789ABCDEF",
        "marmot:join/ADMIN/0123456789abcdef",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef/more",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?name",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?name=a&name=b",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?colour=red",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?members=0",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?members=-3",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?members=1234567",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?expires=soon",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?name=a%2",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?name=a%zz",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?name=%FF%FE",
        "marmot:join/ADMIN/0123456789abcdef0123456789abcdef?name=a b",
    ])
    func aMalformedLinkIsRefused(_ template: String) {
        let text = template.replacing("ADMIN", with: Self.admin.npub)
        #expect(throws: CoreError.self) { try GroupLinkText(parsing: text) }
        do {
            _ = try GroupLinkText(parsing: text)
        } catch {
            #expect(error.code == .invalidLink, "\(text): \(error)")
        }
    }

    @Test func anOverlongLinkIsRefusedBeforeItIsRead() {
        let text = GroupLinkText(admin: Self.admin, token: Self.token, name: String(repeating: "é", count: 300), memberCount: 2).text
        #expect(text.utf8.count > GroupLinkText.maximumLength)
        #expect(throws: CoreError.self) { try GroupLinkText(parsing: text) }
    }
}
