import ConformanceTestSupport
import HexEncoding
import MLS
import Marmot
import Nostr
import TLSCodec
import Testing

/// Kind-445 events MDK 0.8.0 sent: our outer layer opens each with the captured exporter key, and
/// sealing the same MLS bytes with the same nonce reproduces MDK's content byte for byte.
@Suite struct GroupEventVectorTests {
    static let cases: [(file: String, path: String)] = [
        ("03_application_messages.json", "alice_kind9"),
        ("03_application_messages.json", "bob_kind9_with_inner_e_tag_and_outer_expiration"),
        ("03_application_messages.json", "carol_kind7_reaction"),
        ("04_commits.json", "add_members_dave"),
        ("04_commits.json", "remove_members_dave"),
        ("04_commits.json", "update_group_data_rename"),
        ("04_commits.json", "self_update_carol"),
        ("04_commits.json", "leave_group_carol"),
    ]

    @Test(arguments: cases.indices)
    func contentOpensWithCapturedKeyAndResealsIdentically(index: Int) throws {
        let (name, path) = Self.cases[index]
        let file = try MDKVectors.file(name)
        let event = try MDKVectors.event(file, path)
        let key = try MDKVectors.bytes(file, "\(path)/analysis/outer_key/exporter_secret_hex")
        let plain = try GroupEventCipher.open(event.content, key: key)
        #expect(plain == (try MDKVectors.bytes(file, "\(path)/analysis/mls_message_hex")))
        let message = try MLSMessage(tlsBytes: plain)
        let epoch = try #require(try MDKVectors.value(file, "\(path)/analysis/outer_key/epoch") as? Int)
        #expect(message.framedEpoch == UInt64(epoch), "a commit is encrypted under its pre-commit epoch")
        // The same key is the store's group-event exporter row of that epoch.
        let rows = try #require(try MDKVectors.value(try MDKVectors.file("exporter_secrets.json"), "rows") as? [[String: Any]])
        let row = try #require(rows.first { $0["epoch"] as? Int == epoch && $0["label"] as? String == "group-event" })
        #expect(row["secret"] as? String == key.hexString)
        let nonce = try MDKVectors.bytes(file, "\(path)/analysis/nonce_hex")
        #expect(try GroupEventCipher.seal(plain, key: key, nonce: nonce) == event.content)

        let groupID = try GroupEventEnvelope.check(event, now: event.createdAt)
        #expect(event.firstTagValue("h") == groupID.hexString)
        #expect(event.tags.contains(Base64Content.tag))
    }

    @Test func wrongKeyAndTamperedContentAreUndecryptable() throws {
        let file = try MDKVectors.file("03_application_messages.json")
        let event = try MDKVectors.event(file, "alice_kind9")
        let key = try MDKVectors.bytes(file, "alice_kind9/analysis/outer_key/exporter_secret_hex")
        var wrong = key
        wrong[0] ^= 1
        #expect(throws: MarmotError(.undecryptable, "")) { try GroupEventCipher.open(event.content, key: wrong) }
        var bytes = try Base64Content.decode(event.content)
        bytes[bytes.count - 1] ^= 0x80
        #expect(throws: MarmotError(.undecryptable, "")) { try GroupEventCipher.open(Base64Content.encode(bytes), key: key) }
        #expect(throws: MarmotError(.undecryptable, "")) {
            try GroupEventCipher.open(Base64Content.encode(Array(bytes.prefix(27))), key: key)
        }
        #expect(throws: MarmotError(.invalidBase64, "")) { try GroupEventCipher.open("not base64!", key: key) }
    }

    @Test func envelopeWindowAndTags() throws {
        let file = try MDKVectors.file("03_application_messages.json")
        let event = try MDKVectors.event(file, "alice_kind9")
        let t = event.createdAt
        #expect(throws: MarmotError(.groupEventTooOld, "")) {
            try GroupEventEnvelope.check(event, now: t + GroupEventEnvelope.maximumAge + 1)
        }
        _ = try GroupEventEnvelope.check(event, now: t + GroupEventEnvelope.maximumAge)
        #expect(throws: MarmotError(.groupEventInFuture, "")) { try GroupEventEnvelope.check(event, now: t - 301) }
        _ = try GroupEventEnvelope.check(event, now: t - 300)
    }

    @Test func exporterDerivationMatchesMDK() throws {
        let file = try MDKVectors.file("04_commits.json")
        let rows = try #require(try MDKVectors.value(file, "exporter_derivation_check_alice") as? [[String: Any]])
        #expect(!rows.isEmpty)
        for row in rows {
            let secret = try [UInt8](hex: try #require(row["mls_epoch_exporter_secret_hex"] as? String))
            let expected = try [UInt8](hex: try #require(row["marmot_group_event_exporter_hex"] as? String))
            #expect(GroupEventKey.derive(exporterSecret: secret) == expected)
        }
    }

    @Test func madeEventsAreSignedByOneTimeKeysAndCarryExactTags() throws {
        var generator = TestGenerator(seed: 3)
        let id = [UInt8](repeating: 0xAB, count: 32)
        let a = try GroupEventEnvelope.make(nostrGroupID: id, content: "AA==", createdAt: 100, using: &generator)
        let b = try GroupEventEnvelope.make(nostrGroupID: id, content: "AA==", createdAt: 100, using: &generator)
        try a.verify()
        #expect(a.kind == .groupEvent)
        #expect(a.tags == [["h", id.hexString], ["encoding", "base64"]])
        #expect(a.pubkey != b.pubkey)
    }
}
