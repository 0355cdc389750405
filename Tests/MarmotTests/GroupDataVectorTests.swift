import ConformanceTestSupport
import HexEncoding
import MLS
import Marmot
import Nostr
import Testing

/// Extension 0xF2EE and the welcome as MDK 0.8.0 wrote them for `create_group(alice, [bob, carol])`.
@Suite struct GroupDataVectorTests {
    static let groupInfoPath = "members/bob/decrypted/group_info/group_context/extensions"

    func mdkGroupDataBytes() throws -> [UInt8] {
        let file = try MDKVectors.file("02_create_group_welcome.json")
        let extensions = try #require(try MDKVectors.value(file, Self.groupInfoPath) as? [[String: Any]])
        let entry = try #require(extensions.first { $0["type"] as? String == "0xf2ee" })
        return try [UInt8](hex: try #require(entry["data_hex"] as? String))
    }

    @Test func decodesAndReencodesByteIdentically() throws {
        let file = try MDKVectors.file("02_create_group_welcome.json")
        let bytes = try mdkGroupDataBytes()
        let data = try GroupData(bytes: bytes)
        #expect(data.encoded() == bytes)
        #expect(bytes.count == 186)
        #expect(data.version == 2)
        #expect(data.name == "Marmot Vectors")
        #expect(data.description == "Captured from MDK 0.8.0")
        #expect(data.nostrGroupIDHex == (try MDKVectors.string(file, "create_group_result/group/nostr_group_id")))
        let admins = try #require(try MDKVectors.value(file, "admins") as? [String])
        #expect(data.admins == (try admins.map(PublicKey.init(hex:)).sorted()))
        #expect(data.relays == (try MDKVectors.value(file, "relays") as? [String]))
        #expect(data.imageHash == nil && data.imageKey == nil && data.imageNonce == nil && data.imageUploadKey == nil)
    }

    @Test func everyProperPrefixIsRejected() throws {
        let bytes = try mdkGroupDataBytes()
        for prefix in Mutations.properPrefixes(of: bytes) {
            #expect(throws: MarmotError(.invalidGroupData, "")) { try GroupData(bytes: Array(prefix)) }
        }
        #expect(throws: MarmotError(.invalidGroupData, "")) { try GroupData(bytes: bytes + [0]) }
        var versionZero = bytes
        versionZero[1] = 0
        #expect(throws: MarmotError(.invalidGroupData, "")) { try GroupData(bytes: versionZero) }
    }

    @Test func imageFieldsRoundTripAndWrongLengthsFail() throws {
        var data = try GroupData(bytes: try mdkGroupDataBytes())
        data.imageHash = [UInt8](repeating: 1, count: 32)
        data.imageNonce = [UInt8](repeating: 2, count: 12)
        data.imageUploadKey = [UInt8](repeating: 3, count: 32)
        #expect(try GroupData(bytes: data.encoded()) == data)
        data.imageNonce = [UInt8](repeating: 2, count: 13)
        #expect(throws: MarmotError(.invalidGroupData, "")) { try GroupData(bytes: data.encoded()) }
        data.imageNonce = nil
        data.relays = ["https://not.a.relay"]
        #expect(throws: MarmotError(.invalidGroupData, "")) { try GroupData(bytes: data.encoded()) }
    }

    @Test(arguments: ["bob", "carol"])
    func welcomeRumorParsesAndOpensWithTheInviteeKey(invitee: String) throws {
        let welcomes = try MDKVectors.file("02_create_group_welcome.json")
        let keyPackages = try MDKVectors.file("01_key_packages.json")
        let rumor = try UnsignedEvent(rumorJSON: try MDKVectors.string(welcomes, "members/\(invitee)/rumor_json"))
        let parsed = try WelcomeRumor.parse(rumor)
        #expect(parsed.keyPackageEvent == (try MDKVectors.event(keyPackages, invitee)).id.hex)
        #expect(parsed.relays == (try MDKVectors.value(welcomes, "relays") as? [String]))

        // Open it with the invitee's captured init key: the GroupContext carries MDK's 0xF2EE and the
        // RequiredCapabilities our own group creation would write for the same invitees.
        let event = try MDKVectors.event(keyPackages, invitee)
        let keyPackage = try KeyPackageEvent.validate(event, now: event.createdAt).keyPackage
        let opened = try parsed.welcome.open(
            keyPackage: keyPackage, initPrivateKey: try MDKVectors.bytes(keyPackages, "\(invitee)/init_private_key_hex"),
            suite: MarmotCapabilities.suite, psks: { (_: [PreSharedKeyID]) throws(MLSError) in [] })
        let context = opened.groupInfo.groupContext
        #expect(context.groupID.count == 16)
        #expect(try GroupData(extensions: context.extensions).encoded() == (try mdkGroupDataBytes()))
        var invitees: [KeyPackage] = []
        for name in ["bob", "carol"] {
            let kp = try MDKVectors.event(keyPackages, name)
            invitees.append(try KeyPackageEvent.validate(kp, now: kp.createdAt).keyPackage)
        }
        let expected = try MarmotCapabilities.groupContextExtensions(
            data: try GroupData(bytes: try mdkGroupDataBytes()), invitees: invitees)
        #expect(context.extensions == expected)
    }

    @Test func welcomeRumorRejections() throws {
        let welcomes = try MDKVectors.file("02_create_group_welcome.json")
        let rumor = try UnsignedEvent(rumorJSON: try MDKVectors.string(welcomes, "members/bob/rumor_json"))
        func with(_ tags: [[String]]) -> UnsignedEvent {
            UnsignedEvent(pubkey: rumor.pubkey, createdAt: rumor.createdAt, kind: rumor.kind, tags: tags, content: rumor.content)
        }
        #expect(throws: MarmotError(.invalidEncoding, "")) { try WelcomeRumor.parse(with(rumor.tags.filter { $0.first != "encoding" })) }
        #expect(throws: MarmotError(.invalidWelcome, "")) { try WelcomeRumor.parse(with(rumor.tags.filter { $0.first != "e" })) }
        #expect(throws: MarmotError(.invalidWelcome, "")) { try WelcomeRumor.parse(with(rumor.tags.filter { $0.first != "relays" })) }
        var wrongKind = rumor
        wrongKind.kind = .groupEvent
        #expect(throws: MarmotError(.invalidWelcome, "")) { try WelcomeRumor.parse(wrongKind) }
        var truncated = rumor
        truncated.content = "AAEAAw=="
        #expect(throws: MarmotError(.invalidWelcome, "")) { try WelcomeRumor.parse(truncated) }
    }
}
