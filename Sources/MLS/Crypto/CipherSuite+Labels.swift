// The labeled operations of RFC 9420 §5.1–5.2 that every other part of MLS is built from.
import TLSCodec

/// "MLS 1.0 " ‖ label, the prefix that separates MLS uses of a primitive from any other.
func mlsLabel(_ label: String) -> [UInt8] { mlsLabel(Array(label.utf8)) }

/// The same for a label given as bytes (the exporter's label is arbitrary bytes).
func mlsLabel(_ label: [UInt8]) -> [UInt8] { Array("MLS 1.0 ".utf8) + label }

extension CipherSuite {
    // struct {
    //     opaque label<V>;
    //     opaque value<V>;
    // } RefHashInput;
    /// RefHash(label, value) = Hash(RefHashInput); `label` is used as given, without the MLS prefix.
    public func refHash(label: String, value: [UInt8]) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(Array(label.utf8))
        w.writeOpaque(value)
        return hash(w.bytes)
    }

    // struct {
    //     uint16 length;
    //     opaque label<V>;
    //     opaque context<V>;
    // } KDFLabel;
    /// ExpandWithLabel(secret, label, context, length).
    public func expandWithLabel(secret: [UInt8], label: String, context: [UInt8], length: Int) -> [UInt8] {
        expandWithLabel(secret: secret, label: Array(label.utf8), context: context, length: length)
    }

    /// ExpandWithLabel with a label given as bytes.
    public func expandWithLabel(secret: [UInt8], label: [UInt8], context: [UInt8], length: Int) -> [UInt8] {
        var w = TLSWriter()
        w.write(UInt16(truncatingIfNeeded: length))
        w.writeOpaque(mlsLabel(label))
        w.writeOpaque(context)
        return expand(prk: secret, info: w.bytes, length: length)
    }

    /// DeriveSecret(secret, label) = ExpandWithLabel(secret, label, "", Nh).
    public func deriveSecret(secret: [UInt8], label: String) -> [UInt8] {
        expandWithLabel(secret: secret, label: label, context: [], length: hashLength)
    }

    /// DeriveTreeSecret(secret, label, generation, length) of the secret tree (§9).
    public func deriveTreeSecret(secret: [UInt8], label: String, generation: UInt32, length: Int) -> [UInt8] {
        var w = TLSWriter()
        w.write(generation)
        return expandWithLabel(secret: secret, label: label, context: w.bytes, length: length)
    }

    // struct {
    //     opaque label<V>;
    //     opaque content<V>;
    // } SignContent;
    private func signContent(label: String, content: [UInt8]) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(mlsLabel(label))
        w.writeOpaque(content)
        return w.bytes
    }

    /// SignWithLabel(key, label, content).
    public func signWithLabel(privateKey: [UInt8], label: String, content: [UInt8]) throws(MLSError) -> [UInt8] {
        try sign(privateKey: privateKey, message: signContent(label: label, content: content))
    }

    /// VerifyWithLabel(key, label, content, signature).
    public func verifyWithLabel(publicKey: [UInt8], label: String, content: [UInt8], signature: [UInt8]) -> Bool {
        verify(publicKey: publicKey, message: signContent(label: label, content: content), signature: signature)
    }

    // struct {
    //     opaque label<V>;
    //     opaque context<V>;
    // } EncryptContext;
    private func encryptContext(label: String, context: [UInt8]) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(mlsLabel(label))
        w.writeOpaque(context)
        return w.bytes
    }

    /// EncryptWithLabel(pk, label, context, plaintext) = SealBase(pk, EncryptContext, "", plaintext),
    /// with the ephemeral key drawn from `generator`.
    public func encryptWithLabel(
        publicKey: [UInt8], label: String, context: [UInt8], plaintext: [UInt8],
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> HPKECiphertext {
        try encryptWithLabel(
            publicKey: publicKey, label: label, context: context, plaintext: plaintext,
            ephemeralPrivateKey: randomBytes(32, using: &generator))
    }

    /// EncryptWithLabel with an explicit ephemeral private key.
    public func encryptWithLabel(
        publicKey: [UInt8], label: String, context: [UInt8], plaintext: [UInt8], ephemeralPrivateKey: [UInt8]
    ) throws(MLSError) -> HPKECiphertext {
        let sealed = try HPKE.sealBase(
            suite: self, recipient: publicKey, info: encryptContext(label: label, context: context), aad: [],
            plaintext: plaintext, ephemeral: ephemeralPrivateKey)
        return HPKECiphertext(kemOutput: sealed.enc, ciphertext: sealed.ciphertext)
    }

    /// DecryptWithLabel(sk, label, context, kem_output, ciphertext).
    public func decryptWithLabel(
        privateKey: [UInt8], label: String, context: [UInt8], ciphertext: HPKECiphertext
    ) throws(MLSError) -> [UInt8] {
        try HPKE.openBase(
            suite: self, enc: ciphertext.kemOutput, recipientPrivateKey: privateKey,
            info: encryptContext(label: label, context: context), aad: [], ciphertext: ciphertext.ciphertext)
    }

    /// DeriveKeyPair(secret) of the KEM: (private key, public key).
    public func deriveKeyPair(secret: [UInt8]) throws(MLSError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
        try HPKE.deriveKeyPair(ikm: secret)
    }

    /// The HPKE public key of a private key.
    public func hpkePublicKey(of privateKey: [UInt8]) throws(MLSError) -> [UInt8] {
        try HPKE.publicKey(of: privateKey)
    }
}
