import MLS
import TLSCodec
import Testing

/// key-schedule.json, psk_secret.json and transcript-hashes.json.
@Suite struct KeyScheduleVectorTests {
    struct KeyScheduleCase: SuiteCase {
        struct Exporter: Decodable {
            let label: String
            let context: Hex
            let length: Int
            let secret: Hex
        }
        struct Epoch: Decodable {
            let tree_hash: Hex
            let commit_secret: Hex
            let psk_secret: Hex
            let confirmed_transcript_hash: Hex
            let group_context: Hex
            let joiner_secret: Hex
            let welcome_secret: Hex
            let init_secret: Hex
            let sender_data_secret: Hex
            let encryption_secret: Hex
            let exporter_secret: Hex
            let epoch_authenticator: Hex
            let external_secret: Hex
            let confirmation_key: Hex
            let membership_key: Hex
            let resumption_psk: Hex
            let external_pub: Hex
            let exporter: Exporter
        }
        let cipher_suite: UInt16
        let group_id: Hex
        let initial_init_secret: Hex
        let epochs: [Epoch]
    }

    @Test func keyScheduleVectors() throws {
        try VectorRun.suites("key-schedule.json", KeyScheduleCase.self) { c, suite, checks in
            var initSecret = c.initial_init_secret.bytes
            for (n, e) in c.epochs.enumerated() {
                let context = GroupContext(
                    cipherSuite: suite.id, groupID: c.group_id.bytes, epoch: UInt64(n), treeHash: e.tree_hash.bytes,
                    confirmedTranscriptHash: e.confirmed_transcript_hash.bytes, extensions: [])
                let contextBytes = try context.tlsSerialized()
                checks.equal(contextBytes, e.group_context.bytes, "epochs[\(n)].group_context")
                let s = EpochSecrets(
                    suite: suite, initSecret: initSecret, commitSecret: e.commit_secret.bytes,
                    pskSecret: e.psk_secret.bytes, groupContext: contextBytes)
                checks.equal(s.joinerSecret, e.joiner_secret.bytes, "epochs[\(n)].joiner_secret")
                checks.equal(s.welcomeSecret, e.welcome_secret.bytes, "epochs[\(n)].welcome_secret")
                checks.equal(s.initSecret, e.init_secret.bytes, "epochs[\(n)].init_secret")
                checks.equal(s.senderDataSecret, e.sender_data_secret.bytes, "epochs[\(n)].sender_data_secret")
                checks.equal(s.encryptionSecret, e.encryption_secret.bytes, "epochs[\(n)].encryption_secret")
                checks.equal(s.exporterSecret, e.exporter_secret.bytes, "epochs[\(n)].exporter_secret")
                checks.equal(s.epochAuthenticator, e.epoch_authenticator.bytes, "epochs[\(n)].epoch_authenticator")
                checks.equal(s.externalSecret, e.external_secret.bytes, "epochs[\(n)].external_secret")
                checks.equal(s.confirmationKey, e.confirmation_key.bytes, "epochs[\(n)].confirmation_key")
                checks.equal(s.membershipKey, e.membership_key.bytes, "epochs[\(n)].membership_key")
                checks.equal(s.resumptionPSK, e.resumption_psk.bytes, "epochs[\(n)].resumption_psk")
                checks.equal(try s.externalPublicKey(), e.external_pub.bytes, "epochs[\(n)].external_pub")
                checks.equal(
                    s.exporter(label: e.exporter.label, context: e.exporter.context.bytes, length: e.exporter.length),
                    e.exporter.secret.bytes, "epochs[\(n)].exporter.secret")
                initSecret = s.initSecret
            }
        }
    }

    struct PSKCase: SuiteCase {
        struct PSK: Decodable {
            let psk_id: Hex
            let psk: Hex
            let psk_nonce: Hex
        }
        let cipher_suite: UInt16
        let psks: [PSK]
        let psk_secret: Hex
    }

    @Test func pskSecretVectors() throws {
        try VectorRun.suites("psk_secret.json", PSKCase.self) { c, suite, checks in
            let psks = c.psks.map {
                ResolvedPSK(id: PreSharedKeyID(kind: .external(id: $0.psk_id.bytes), nonce: $0.psk_nonce.bytes), secret: $0.psk.bytes)
            }
            checks.equal(suite.pskSecret(psks), c.psk_secret.bytes, "psk_secret")
        }
    }

    struct TranscriptCase: SuiteCase {
        let cipher_suite: UInt16
        let confirmation_key: Hex
        let authenticated_content: Hex
        let interim_transcript_hash_before: Hex
        let confirmed_transcript_hash_after: Hex
        let interim_transcript_hash_after: Hex
    }

    @Test func transcriptHashVectors() throws {
        try VectorRun.suites("transcript-hashes.json", TranscriptCase.self) { c, suite, checks in
            let content = try AuthenticatedContent(tlsBytes: c.authenticated_content.bytes)
            checks.equal(try content.tlsSerialized(), c.authenticated_content.bytes, "authenticated_content round trip")
            let confirmed = suite.confirmedTranscriptHash(interim: c.interim_transcript_hash_before.bytes, commit: content)
            checks.equal(confirmed, c.confirmed_transcript_hash_after.bytes, "confirmed_transcript_hash_after")
            let tag = suite.confirmationTag(confirmationKey: c.confirmation_key.bytes, confirmedTranscriptHash: confirmed)
            checks.equal(content.auth.confirmationTag, tag, "confirmation_tag = MAC(confirmation_key, confirmed)")
            checks.equal(
                suite.interimTranscriptHash(confirmed: confirmed, confirmationTag: tag),
                c.interim_transcript_hash_after.bytes, "interim_transcript_hash_after")
        }
    }
}
