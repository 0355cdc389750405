import MLS
import Testing

/// secret-tree.json: sender-data keys and every leaf's handshake and application keys.
@Suite struct SecretTreeVectorTests {
    struct Case: SuiteCase {
        struct SenderData: Decodable {
            let sender_data_secret: Hex
            let ciphertext: Hex
            let key: Hex
            let nonce: Hex
        }
        struct Generation: Decodable {
            let generation: UInt32
            let handshake_key: Hex
            let handshake_nonce: Hex
            let application_key: Hex
            let application_nonce: Hex
        }
        let cipher_suite: UInt16
        let encryption_secret: Hex
        let sender_data: SenderData
        let leaves: [[Generation]]
    }

    @Test func secretTreeVectors() throws {
        try VectorRun.suites("secret-tree.json", Case.self) { c, suite, checks in
            let sd = suite.senderDataKeyAndNonce(
                senderDataSecret: c.sender_data.sender_data_secret.bytes, ciphertext: c.sender_data.ciphertext.bytes)
            checks.equal(sd.key, c.sender_data.key.bytes, "sender_data.key")
            checks.equal(sd.nonce, c.sender_data.nonce.bytes, "sender_data.nonce")

            var tree = SecretTree(
                suite: suite, encryptionSecret: c.encryption_secret.bytes, leafCount: UInt32(c.leaves.count))
            for (leaf, generations) in c.leaves.enumerated() {
                for g in generations {
                    let name = "leaves[\(leaf)] generation \(g.generation)"
                    let hs = try tree.key(leaf: UInt32(leaf), ratchet: .handshake, generation: g.generation)
                    checks.equal(hs.key, g.handshake_key.bytes, "\(name) handshake_key")
                    checks.equal(hs.nonce, g.handshake_nonce.bytes, "\(name) handshake_nonce")
                    let app = try tree.key(leaf: UInt32(leaf), ratchet: .application, generation: g.generation)
                    checks.equal(app.key, g.application_key.bytes, "\(name) application_key")
                    checks.equal(app.nonce, g.application_nonce.bytes, "\(name) application_nonce")
                }
            }
        }
    }

    @Test func usedAndFarGenerationsAreRefused() throws {
        let suite = CipherSuite.x25519AES128GCMSHA256Ed25519
        var tree = SecretTree(suite: suite, encryptionSecret: Array(repeating: 7, count: 32), leafCount: 4)
        let five = try tree.key(leaf: 2, ratchet: .application, generation: 5)
        // Generation 3 was skipped on the way to 5, so it is still available once, out of order.
        let three = try tree.key(leaf: 2, ratchet: .application, generation: 3)
        #expect(three.generation == 3 && three.key != five.key)
        #expect(throws: MLSError(.keyConsumed, "")) { try tree.key(leaf: 2, ratchet: .application, generation: 3) }
        #expect(throws: MLSError(.keyConsumed, "")) { try tree.key(leaf: 2, ratchet: .application, generation: 5) }
        #expect(throws: MLSError(.generationTooFar, "")) {
            try tree.key(leaf: 2, ratchet: .application, generation: 7 + SenderRatchet.maximumForwardDistance)
        }
        #expect(throws: MLSError(.invalidLeafIndex, "")) { try tree.key(leaf: 4, ratchet: .handshake, generation: 0) }
        #expect(try tree.nextKey(leaf: 1, ratchet: .handshake).generation == 0)
        #expect(try tree.nextKey(leaf: 1, ratchet: .handshake).generation == 1)
    }
}
