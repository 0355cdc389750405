import ConformanceTestSupport
import Foundation
import HexEncoding
import MLS
import Marmot
import Nostr
import Testing

/// MIP-00 key-package events published by MDK 0.8.0: ours must accept them, recompute their `i` tag,
/// and reject the same mutations MDK rejects (and, unlike MDK, a bad Nostr signature).
@Suite struct KeyPackageEventVectorTests {
    static let owners = ["bob", "carol", "dave"]

    @Test(arguments: owners)
    func mdkKeyPackageValidatesAndRefMatches(owner: String) throws {
        let file = try MDKVectors.file("01_key_packages.json")
        let event = try MDKVectors.event(file, owner)
        let validated = try KeyPackageEvent.validate(event, now: event.createdAt)
        #expect(validated.reference.hexString == event.firstTagValue("i"))
        // The bindings' hash_ref is postcard-encoded: 0x20 ‖ ref.
        #expect([0x20] + validated.reference == (try MDKVectors.bytes(file, "\(owner)/KeyPackageResult/hash_ref_hex")))
        #expect(try tlsEncoded(validated.keyPackage).count == 317)
        #expect(validated.keyPackage.isLastResort)
        #expect(validated.keyPackage.leafNode.credential == .basic(identity: event.pubkey.bytes))
    }

    @Test(arguments: ["erin_legacy_443", "erin_protected_30443"])
    func legacyAndProtectedVariantsValidate(variant: String) throws {
        let event = try MDKVectors.event(try MDKVectors.file("01_key_packages.json"), variant)
        let validated = try KeyPackageEvent.validate(event, now: event.createdAt)
        #expect(validated.event == event)
    }

    @Test func tagsWeBuildForMDKsKeyPackageEqualMDKsTags() throws {
        let file = try MDKVectors.file("01_key_packages.json")
        let event = try MDKVectors.event(file, "bob")
        let validated = try KeyPackageEvent.validate(event, now: event.createdAt)
        let built = KeyPackageEvent.tags(
            keyPackageRef: validated.reference, dTag: try #require(event.firstTagValue("d")),
            relays: Array(try #require(event.tags.first { $0.first == "relays" }).dropFirst()), protected: false,
            client: "MDK/0.8.0")
        #expect(built.tags == event.tags)
        #expect(built.legacyTags == event.tags.filter { $0.first != "d" })
    }

    /// Re-signs bob's event with `tags` changed by `mutate` (as its owner would), then validates it.
    private func validateMutated(signer: String = "bob", _ mutate: (inout [[String]]) -> Void) throws {
        let file = try MDKVectors.file("01_key_packages.json")
        let event = try MDKVectors.event(file, "bob")
        var tags = event.tags
        mutate(&tags)
        let keypair = Keypair(secretKey: try SecretKey(hex: try MDKVectors.string(file, "\(signer)/owner/nostr_secret_key_hex")))
        var generator = TestGenerator(seed: 7)
        let resigned = try UnsignedEvent(
            pubkey: keypair.publicKey, createdAt: event.createdAt, kind: event.kind, tags: tags, content: event.content
        ).signed(with: keypair, using: &generator)
        _ = try KeyPackageEvent.validate(resigned, now: event.createdAt)
    }

    @Test func rejectionsMatchMDKProbes() throws {
        #expect(throws: MarmotError(.invalidEncoding, "")) { try validateMutated { $0.removeAll { $0.first == "encoding" } } }
        #expect(throws: MarmotError(.invalidEncoding, "")) {
            try validateMutated { tags in tags = tags.map { $0.first == "encoding" ? ["encoding", "hex"] : $0 } }
        }
        #expect(throws: MarmotError(.keyPackageInvalidTag, "")) { try validateMutated { $0.removeAll { $0.first == "d" } } }
        #expect(throws: MarmotError(.keyPackageRefMismatch, "")) {
            try validateMutated { tags in tags = tags.map { $0.first == "i" ? ["i", String(repeating: "ab", count: 32)] : $0 } }
        }
        #expect(throws: MarmotError(.keyPackageInvalidTag, "")) {
            try validateMutated { tags in tags = tags.map { $0.first == "mls_proposals" ? ["mls_proposals", "0x000a", "0x0003"] : $0 } }
        }
        #expect(throws: MarmotError(.keyPackageInvalidTag, "")) {
            try validateMutated { tags in tags = tags.map { $0.first == "mls_ciphersuite" ? ["mls_ciphersuite", "0x0002"] : $0 } }
        }
        #expect(throws: MarmotError(.keyPackageIdentityMismatch, "")) { try validateMutated(signer: "carol") { _ in } }
    }

    @Test func badSignatureAndLifetimeAreRejected() throws {
        let file = try MDKVectors.file("01_key_packages.json")
        let event = try MDKVectors.event(file, "bob")
        let json = try MDKVectors.string(file, "bob/event_json").replacingOccurrences(
            of: event.sig.hexString, with: String(repeating: "0", count: 128))
        let forged = try Event.decodeUnverified(try JSONValue(parsing: json))
        #expect(throws: MarmotError(.keyPackageBadEvent, "")) { try KeyPackageEvent.validate(forged, now: event.createdAt) }
        let notAfter = try #require(try MDKVectors.value(file, "bob/decoded_key_package/leaf_node/lifetime/not_after") as? Int)
        #expect(throws: MarmotError(.keyPackageExpired, "")) {
            try KeyPackageEvent.validate(event, now: UInt64(notAfter) + 1)
        }
    }
}
