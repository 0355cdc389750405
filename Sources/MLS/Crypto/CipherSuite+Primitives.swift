// The raw primitives of suite 0x0001 on swift-crypto. Everything above this file works in bytes,
// so adding a suite later means extending only these functions.
import Crypto
import ErrorCodes

extension MLSError.Code {
    /// A key of the wrong size or not on its curve.
    public static let invalidKey = Self("mls.invalidKey")
    /// AEAD or HPKE decryption failed (wrong key, tampered ciphertext).
    public static let decryptionFailed = Self("mls.decryptionFailed")
    /// A signature did not verify.
    public static let badSignature = Self("mls.badSignature")
}

extension CipherSuite {
    /// Hash(data) with SHA-256.
    public func hash(_ data: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: data)) }

    /// MAC(key, data) with HMAC-SHA256.
    public func mac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    /// KDF.Extract(salt, ikm) with HKDF-SHA256.
    public func extract(salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
        Array(HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: ikm), salt: salt))
    }

    /// KDF.Expand(prk, info, length) with HKDF-SHA256.
    public func expand(prk: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        HKDF<SHA256>.expand(pseudoRandomKey: prk, info: info, outputByteCount: length)
            .withUnsafeBytes { Array($0) }
    }

    /// AEAD.Seal (AES-128-GCM or ChaCha20-Poly1305); returns ciphertext ‖ tag.
    public func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws(MLSError) -> [UInt8] {
        guard key.count == aeadKeyLength else { throw MLSError(.invalidKey, "AEAD key of \(key.count) bytes") }
        do {
            if usesChaCha {
                let box = try ChaChaPoly.seal(
                    plaintext, using: SymmetricKey(data: key), nonce: ChaChaPoly.Nonce(data: nonce), authenticating: aad)
                return Array(box.ciphertext) + Array(box.tag)
            }
            let box = try AES.GCM.seal(
                plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: nonce), authenticating: aad)
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw MLSError(.invalidKey, "AEAD seal: \(error)")
        }
    }

    /// AEAD.Open over ciphertext ‖ tag.
    public func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], ciphertext: [UInt8]) throws(MLSError) -> [UInt8] {
        guard key.count == aeadKeyLength else { throw MLSError(.invalidKey, "AEAD key of \(key.count) bytes") }
        guard ciphertext.count >= 16 else { throw MLSError(.decryptionFailed, "ciphertext shorter than the tag") }
        let body = ciphertext.dropLast(16)
        let tag = ciphertext.suffix(16)
        do {
            if usesChaCha {
                let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: body, tag: tag)
                return Array(try ChaChaPoly.open(box, using: SymmetricKey(data: key), authenticating: aad))
            }
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: body, tag: tag)
            return Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad))
        } catch {
            throw MLSError(.decryptionFailed, "AEAD open failed")
        }
    }

    /// The Ed25519 public key of a 32-byte private seed.
    public func signaturePublicKey(of privateKey: [UInt8]) throws(MLSError) -> [UInt8] {
        Array(try signingKey(privateKey).publicKey.rawRepresentation)
    }

    /// Sign(key, message) with Ed25519 (deterministic, RFC 8032).
    public func sign(privateKey: [UInt8], message: [UInt8]) throws(MLSError) -> [UInt8] {
        do { return Array(try signingKey(privateKey).signature(for: message)) } catch {
            throw MLSError(.invalidKey, "Ed25519 signing failed")
        }
    }

    /// Verify(key, message, signature) with Ed25519.
    public func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    /// A fresh signature key pair drawn from `generator` (private seed, public key).
    public func generateSignatureKeyPair(
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
        let seed = randomBytes(32, using: &generator)
        return (seed, try signaturePublicKey(of: seed))
    }

    /// `count` bytes from `generator`.
    public func randomBytes(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private func signingKey(_ privateKey: [UInt8]) throws(MLSError) -> Curve25519.Signing.PrivateKey {
        do { return try Curve25519.Signing.PrivateKey(rawRepresentation: privateKey) } catch {
            throw MLSError(.invalidKey, "Ed25519 private key of \(privateKey.count) bytes")
        }
    }
}
