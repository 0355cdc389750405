import ConformanceTestSupport
import MLS
import TLSCodec
import Testing

/// messages.json: every message and proposal body decodes and re-encodes to the same bytes.
@Suite struct MessagesVectorTests {
    struct Case: Decodable {
        let mls_welcome: Hex
        let mls_group_info: Hex
        let mls_key_package: Hex
        let ratchet_tree: Hex
        let group_secrets: Hex
        let add_proposal: Hex
        let update_proposal: Hex
        let remove_proposal: Hex
        let pre_shared_key_proposal: Hex
        let re_init_proposal: Hex
        let external_init_proposal: Hex
        let group_context_extensions_proposal: Hex
        let commit: Hex
        let public_message_application: Hex
        let public_message_proposal: Hex
        let public_message_commit: Hex
        let private_message: Hex

        /// Each field with a decode-then-encode function for its type.
        var fields: [(name: String, bytes: [UInt8], roundTrip: ([UInt8]) throws -> [UInt8])] {
            [
                ("mls_welcome", mls_welcome.bytes, { try roundTrip(MLSMessage.self, $0, wireFormat: WireFormat.welcome) }),
                (
                    "mls_group_info", mls_group_info.bytes,
                    {
                        try roundTrip(MLSMessage.self, $0, wireFormat: WireFormat.groupInfo)
                    }
                ),
                (
                    "mls_key_package", mls_key_package.bytes,
                    {
                        try roundTrip(MLSMessage.self, $0, wireFormat: WireFormat.keyPackage)
                    }
                ),
                ("ratchet_tree", ratchet_tree.bytes, { try roundTrip(RatchetTreeNodes.self, $0) }),
                ("group_secrets", group_secrets.bytes, { try roundTrip(GroupSecrets.self, $0) }),
                ("add_proposal", add_proposal.bytes, { try proposalBody(Proposal.Kind.add, $0) }),
                ("update_proposal", update_proposal.bytes, { try proposalBody(Proposal.Kind.update, $0) }),
                ("remove_proposal", remove_proposal.bytes, { try proposalBody(Proposal.Kind.remove, $0) }),
                ("pre_shared_key_proposal", pre_shared_key_proposal.bytes, { try proposalBody(Proposal.Kind.psk, $0) }),
                ("re_init_proposal", re_init_proposal.bytes, { try proposalBody(Proposal.Kind.reInit, $0) }),
                (
                    "external_init_proposal", external_init_proposal.bytes,
                    {
                        try proposalBody(Proposal.Kind.externalInit, $0)
                    }
                ),
                (
                    "group_context_extensions_proposal", group_context_extensions_proposal.bytes,
                    {
                        try proposalBody(Proposal.Kind.groupContextExtensions, $0)
                    }
                ),
                ("commit", commit.bytes, { try roundTrip(Commit.self, $0) }),
                (
                    "public_message_application", public_message_application.bytes,
                    {
                        try roundTrip(MLSMessage.self, $0, wireFormat: WireFormat.publicMessage)
                    }
                ),
                (
                    "public_message_proposal", public_message_proposal.bytes,
                    {
                        try roundTrip(MLSMessage.self, $0, wireFormat: WireFormat.publicMessage)
                    }
                ),
                (
                    "public_message_commit", public_message_commit.bytes,
                    {
                        try roundTrip(MLSMessage.self, $0, wireFormat: WireFormat.publicMessage)
                    }
                ),
                (
                    "private_message", private_message.bytes,
                    {
                        try roundTrip(MLSMessage.self, $0, wireFormat: WireFormat.privateMessage)
                    }
                ),
            ]
        }
    }

    struct WrongWireFormat: Error {}

    static func roundTrip<T: TLSCodable>(_: T.Type, _ bytes: [UInt8]) throws -> [UInt8] {
        try T(tlsBytes: bytes).tlsSerialized()
    }

    static func roundTrip(_: MLSMessage.Type, _ bytes: [UInt8], wireFormat: UInt16) throws -> [UInt8] {
        let message = try MLSMessage(tlsBytes: bytes)
        guard message.body.wireFormat == wireFormat else { throw WrongWireFormat() }
        return try message.tlsSerialized()
    }

    /// Proposal fields hold the body struct (`Add`, `Remove`, …) without the proposal type.
    static func proposalBody(_ type: UInt16, _ bytes: [UInt8]) throws -> [UInt8] {
        var reader = TLSReader(bytes)
        let proposal = try Proposal.decodeBody(type: type, from: &reader)
        try reader.finish()
        var writer = TLSWriter()
        proposal.encodeBody(to: &writer)
        return writer.bytes
    }

    @Test func messagesVectors() throws {
        try VectorRun.plain("messages.json", Case.self) { c, checks in
            for field in c.fields {
                let again = checks.noThrow(field.name) { try field.roundTrip(field.bytes) }
                if let again { checks.equal(again, field.bytes, field.name) }
            }
        }
    }

    /// Every message: proper prefixes fail with a codec error, and seeded mutants never trap.
    @Test func messagesHostileInput() throws {
        let cases = try Vectors.decode([Case].self, from: "mls/messages.json")
        var generator = TestGenerator(seed: 0x4d4c_5339)
        var prefixes = 0
        var unclean: [String] = []
        for c in cases {
            for field in c.fields {
                for prefix in Mutations.properPrefixes(of: field.bytes) {
                    prefixes += 1
                    do {
                        _ = try field.roundTrip(Array(prefix))
                        unclean.append("\(field.name) prefix of \(prefix.count) decoded")
                    } catch is TLSCodecError {
                        continue
                    } catch {
                        unclean.append("\(field.name) prefix of \(prefix.count) threw \(error)")
                    }
                }
                for mutant in Mutations.mutants(of: field.bytes, count: 8, using: &generator) {
                    // This must only not crash; a mutant that decodes must re-encode canonically.
                    if let again = try? field.roundTrip(mutant), again != mutant {
                        unclean.append("\(field.name) mutant decoded but did not round-trip")
                    }
                }
            }
        }
        #expect(unclean.isEmpty, "\(unclean.prefix(5))")
        #expect(prefixes > 100_000)
    }
}
