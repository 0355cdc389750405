import ConformanceTestSupport
import MLS
import Testing

/// crypto-basics.json: every labeled primitive of RFC 9420 §5.
@Suite struct CryptoBasicsVectorTests {
    struct Case: SuiteCase {
        struct RefHash: Decodable {
            let label: String
            let value: Hex
            let out: Hex
        }
        struct ExpandWithLabel: Decodable {
            let secret: Hex
            let label: String
            let context: Hex
            let length: Int
            let out: Hex
        }
        struct DeriveSecret: Decodable {
            let secret: Hex
            let label: String
            let out: Hex
        }
        struct DeriveTreeSecret: Decodable {
            let secret: Hex
            let label: String
            let generation: UInt32
            let length: Int
            let out: Hex
        }
        struct SignWithLabel: Decodable {
            let priv: Hex
            let pub: Hex
            let content: Hex
            let label: String
            let signature: Hex
        }
        struct EncryptWithLabel: Decodable {
            let priv: Hex
            let pub: Hex
            let label: String
            let context: Hex
            let plaintext: Hex
            let kem_output: Hex
            let ciphertext: Hex
        }
        let cipher_suite: UInt16
        let ref_hash: RefHash
        let expand_with_label: ExpandWithLabel
        let derive_secret: DeriveSecret
        let derive_tree_secret: DeriveTreeSecret
        let sign_with_label: SignWithLabel
        let encrypt_with_label: EncryptWithLabel
    }

    @Test func cryptoBasicsVectors() throws {
        try VectorRun.suites("crypto-basics.json", Case.self) { c, suite, checks in
            let r = c.ref_hash
            checks.equal(suite.refHash(label: r.label, value: r.value.bytes), r.out.bytes, "ref_hash.out")

            let e = c.expand_with_label
            checks.equal(
                suite.expandWithLabel(secret: e.secret.bytes, label: e.label, context: e.context.bytes, length: e.length),
                e.out.bytes, "expand_with_label.out")

            let d = c.derive_secret
            checks.equal(suite.deriveSecret(secret: d.secret.bytes, label: d.label), d.out.bytes, "derive_secret.out")

            let t = c.derive_tree_secret
            checks.equal(
                suite.deriveTreeSecret(secret: t.secret.bytes, label: t.label, generation: t.generation, length: t.length),
                t.out.bytes, "derive_tree_secret.out")

            let s = c.sign_with_label
            checks.equal(try suite.signaturePublicKey(of: s.priv.bytes), s.pub.bytes, "sign_with_label.pub")
            checks.require(
                suite.verifyWithLabel(
                    publicKey: s.pub.bytes, label: s.label, content: s.content.bytes, signature: s.signature.bytes),
                "sign_with_label.signature verifies")
            let ours = try suite.signWithLabel(privateKey: s.priv.bytes, label: s.label, content: s.content.bytes)
            checks.equal(ours, s.signature.bytes, "sign_with_label.signature (Ed25519 is deterministic)")
            checks.require(
                !suite.verifyWithLabel(
                    publicKey: s.pub.bytes, label: s.label + "x", content: s.content.bytes, signature: s.signature.bytes),
                "sign_with_label rejects another label")

            let x = c.encrypt_with_label
            checks.equal(try suite.hpkePublicKey(of: x.priv.bytes), x.pub.bytes, "encrypt_with_label.pub")
            let vectorCiphertext = HPKECiphertext(kemOutput: x.kem_output.bytes, ciphertext: x.ciphertext.bytes)
            checks.equal(
                try suite.decryptWithLabel(
                    privateKey: x.priv.bytes, label: x.label, context: x.context.bytes, ciphertext: vectorCiphertext),
                x.plaintext.bytes, "encrypt_with_label.plaintext")
            var generator = TestGenerator(seed: 1)
            let sealed = try suite.encryptWithLabel(
                publicKey: x.pub.bytes, label: x.label, context: x.context.bytes, plaintext: x.plaintext.bytes,
                using: &generator)
            checks.equal(
                try suite.decryptWithLabel(
                    privateKey: x.priv.bytes, label: x.label, context: x.context.bytes, ciphertext: sealed),
                x.plaintext.bytes, "encrypt_with_label round trip")
        }
    }
}
