// HPKE base mode (RFC 9180) for DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 / AES-128-GCM or
// ChaCha20-Poly1305, written on
// raw HKDF so the ephemeral key can come from a caller's generator: swift-crypto's HPKE.Sender
// always draws it from the system RNG, which would make our runs irreproducible.
import Crypto

/// The single-shot HPKE operations MLS needs (sequence number 0 only).
enum HPKE {
    private static let version = Array("HPKE-v1".utf8)
    /// "KEM" ‖ I2OSP(kem_id = 0x0020, 2).
    private static let kemSuiteID = Array("KEM".utf8) + [0x00, 0x20]
    /// The KEM and KDF are the same in every suite we support; only the HPKE suite id and the AEAD vary.
    private static let kdf = CipherSuite.x25519AES128GCMSHA256Ed25519

    /// "HPKE" ‖ kem_id (0x0020) ‖ kdf_id (0x0001) ‖ aead_id.
    private static func hpkeSuiteID(_ suite: CipherSuite) -> [UInt8] {
        Array("HPKE".utf8) + [0x00, 0x20, 0x00, 0x01, UInt8(suite.hpkeAEADID >> 8), UInt8(suite.hpkeAEADID & 0xff)]
    }

    static func labeledExtract(suiteID: [UInt8], salt: [UInt8], label: String, ikm: [UInt8]) -> [UInt8] {
        kdf.extract(salt: salt, ikm: version + suiteID + Array(label.utf8) + ikm)
    }

    static func labeledExpand(suiteID: [UInt8], prk: [UInt8], label: String, info: [UInt8], length: Int) -> [UInt8] {
        let prefix: [UInt8] = [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        return kdf.expand(prk: prk, info: prefix + version + suiteID + Array(label.utf8) + info, length: length)
    }

    /// DeriveKeyPair(ikm) of RFC 9180 §7.1.3 for X25519: (private key, public key).
    static func deriveKeyPair(ikm: [UInt8]) throws(MLSError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
        let prk = labeledExtract(suiteID: kemSuiteID, salt: [], label: "dkp_prk", ikm: ikm)
        let sk = labeledExpand(suiteID: kemSuiteID, prk: prk, label: "sk", info: [], length: 32)
        return (sk, try publicKey(of: sk))
    }

    /// The X25519 public key of a private key.
    static func publicKey(of privateKey: [UInt8]) throws(MLSError) -> [UInt8] {
        Array(try agreementKey(privateKey).publicKey.rawRepresentation)
    }

    /// SealBase(pkR, info, aad, pt) with the ephemeral private key `ephemeral`: (enc, ciphertext).
    static func sealBase(
        suite: CipherSuite, recipient: [UInt8], info: [UInt8], aad: [UInt8], plaintext: [UInt8], ephemeral: [UInt8]
    ) throws(MLSError) -> (enc: [UInt8], ciphertext: [UInt8]) {
        let skE = try agreementKey(ephemeral)
        let enc = Array(skE.publicKey.rawRepresentation)
        let dh = try sharedSecret(skE, recipient)
        let (key, nonce) = keySchedule(suite: suite, sharedSecret: kemSharedSecret(dh: dh, enc: enc, recipient: recipient), info: info)
        return (enc, try suite.seal(key: key, nonce: nonce, aad: aad, plaintext: plaintext))
    }

    /// OpenBase(enc, skR, info, aad, ct).
    static func openBase(
        suite: CipherSuite, enc: [UInt8], recipientPrivateKey: [UInt8], info: [UInt8], aad: [UInt8], ciphertext: [UInt8]
    ) throws(MLSError) -> [UInt8] {
        let skR = try agreementKey(recipientPrivateKey)
        let recipient = Array(skR.publicKey.rawRepresentation)
        let dh = try sharedSecret(skR, enc)
        let (key, nonce) = keySchedule(suite: suite, sharedSecret: kemSharedSecret(dh: dh, enc: enc, recipient: recipient), info: info)
        return try suite.open(key: key, nonce: nonce, aad: aad, ciphertext: ciphertext)
    }

    /// SetupBaseR(enc, skR, info) followed by Export(exporterContext, length): the receiver side
    /// of MLS external init (§8.3).
    static func receiverExport(
        suite: CipherSuite, enc: [UInt8], recipientPrivateKey: [UInt8], info: [UInt8], exporterContext: [UInt8], length: Int
    ) throws(MLSError) -> [UInt8] {
        let skR = try agreementKey(recipientPrivateKey)
        let recipient = Array(skR.publicKey.rawRepresentation)
        let dh = try sharedSecret(skR, enc)
        return export(
            suite: suite, sharedSecret: kemSharedSecret(dh: dh, enc: enc, recipient: recipient), info: info,
            exporterContext: exporterContext, length: length)
    }

    /// SetupBaseS(pkR, info) with ephemeral `ephemeral`, then Export: (enc, exported secret).
    static func senderExport(
        suite: CipherSuite, recipient: [UInt8], info: [UInt8], exporterContext: [UInt8], length: Int, ephemeral: [UInt8]
    ) throws(MLSError) -> (enc: [UInt8], secret: [UInt8]) {
        let skE = try agreementKey(ephemeral)
        let enc = Array(skE.publicKey.rawRepresentation)
        let dh = try sharedSecret(skE, recipient)
        let secret = export(
            suite: suite, sharedSecret: kemSharedSecret(dh: dh, enc: enc, recipient: recipient), info: info,
            exporterContext: exporterContext, length: length)
        return (enc, secret)
    }

    private static func export(
        suite: CipherSuite, sharedSecret: [UInt8], info: [UInt8], exporterContext: [UInt8], length: Int
    ) -> [UInt8] {
        let id = hpkeSuiteID(suite)
        let (secret, context) = scheduleSecret(suiteID: id, sharedSecret: sharedSecret, info: info)
        let exporterSecret = labeledExpand(suiteID: id, prk: secret, label: "exp", info: context, length: 32)
        return labeledExpand(suiteID: id, prk: exporterSecret, label: "sec", info: exporterContext, length: length)
    }

    /// ExtractAndExpand(dh, enc ‖ pkR) of DHKEM.
    private static func kemSharedSecret(dh: [UInt8], enc: [UInt8], recipient: [UInt8]) -> [UInt8] {
        let prk = labeledExtract(suiteID: kemSuiteID, salt: [], label: "eae_prk", ikm: dh)
        return labeledExpand(suiteID: kemSuiteID, prk: prk, label: "shared_secret", info: enc + recipient, length: 32)
    }

    /// KeySchedule for mode_base with empty psk and psk_id: (key, base_nonce).
    private static func keySchedule(suite: CipherSuite, sharedSecret: [UInt8], info: [UInt8]) -> ([UInt8], [UInt8]) {
        let id = hpkeSuiteID(suite)
        let (secret, context) = scheduleSecret(suiteID: id, sharedSecret: sharedSecret, info: info)
        let key = labeledExpand(suiteID: id, prk: secret, label: "key", info: context, length: suite.aeadKeyLength)
        let nonce = labeledExpand(
            suiteID: id, prk: secret, label: "base_nonce", info: context, length: suite.aeadNonceLength)
        return (key, nonce)
    }

    /// The key schedule's `secret` and `key_schedule_context` for mode_base.
    private static func scheduleSecret(
        suiteID: [UInt8], sharedSecret: [UInt8], info: [UInt8]
    ) -> (secret: [UInt8], context: [UInt8]) {
        let pskIDHash = labeledExtract(suiteID: suiteID, salt: [], label: "psk_id_hash", ikm: [])
        let infoHash = labeledExtract(suiteID: suiteID, salt: [], label: "info_hash", ikm: info)
        let context = [0x00] + pskIDHash + infoHash
        return (labeledExtract(suiteID: suiteID, salt: sharedSecret, label: "secret", ikm: []), context)
    }

    private static func agreementKey(_ raw: [UInt8]) throws(MLSError) -> Curve25519.KeyAgreement.PrivateKey {
        do { return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw) } catch {
            throw MLSError(.invalidKey, "X25519 private key of \(raw.count) bytes")
        }
    }

    private static func sharedSecret(
        _ privateKey: Curve25519.KeyAgreement.PrivateKey, _ publicKey: [UInt8]
    ) throws(MLSError) -> [UInt8] {
        do {
            let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
            let shared = try privateKey.sharedSecretFromKeyAgreement(with: peer)
            return shared.withUnsafeBytes { Array($0) }
        } catch {
            throw MLSError(.invalidKey, "X25519 agreement failed (bad or low-order public key)")
        }
    }
}
