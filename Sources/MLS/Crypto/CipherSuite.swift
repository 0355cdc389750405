// MLS cipher suites (RFC 9420 §17.1). Implemented: 0x0001
// MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519 = DHKEM(X25519, HKDF-SHA256), HKDF-SHA256,
// AES-128-GCM, SHA-256, Ed25519; and 0x0003, the same with ChaCha20-Poly1305 as the AEAD.
import TLSCodec

/// A supported MLS cipher suite; constructing one for an unsupported id fails.
public struct CipherSuite: Hashable, Sendable, CustomStringConvertible {
    /// The registry value.
    public let id: UInt16

    /// MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519.
    public static let x25519AES128GCMSHA256Ed25519 = CipherSuite(checked: 1)
    /// MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519.
    public static let x25519ChaCha20Poly1305SHA256Ed25519 = CipherSuite(checked: 3)

    /// Names of the registered suites, for reports of what is skipped.
    public static let registeredNames: [UInt16: String] = [
        1: "MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519",
        2: "MLS_128_DHKEMP256_AES128GCM_SHA256_P256",
        3: "MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519",
        4: "MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448",
        5: "MLS_256_DHKEMP521_AES256GCM_SHA512_P521",
        6: "MLS_256_DHKEMX448_CHACHA20POLY1305_SHA512_Ed448",
        7: "MLS_256_DHKEMP384_AES256GCM_SHA384_P384",
    ]

    private init(checked id: UInt16) { self.id = id }

    /// The suite with registry value `id`.
    /// - Throws: `.unsupportedCipherSuite` for any suite but 0x0001 and 0x0003.
    public init(id: UInt16) throws(MLSError) {
        guard id == 1 || id == 3 else {
            throw MLSError(.unsupportedCipherSuite, "cipher suite \(id) (\(Self.registeredNames[id] ?? "unregistered"))")
        }
        self.id = id
    }

    /// Nh: the hash and KDF output length.
    public var hashLength: Int { 32 }
    /// Nk: the AEAD key length.
    public var aeadKeyLength: Int { usesChaCha ? 32 : 16 }
    /// The HPKE AEAD identifier (RFC 9180 §7.3).
    var hpkeAEADID: UInt16 { usesChaCha ? 0x0003 : 0x0001 }
    /// True for the ChaCha20-Poly1305 suite.
    var usesChaCha: Bool { id == 3 }
    /// Nn: the AEAD nonce length.
    public var aeadNonceLength: Int { 12 }

    public var description: String { Self.registeredNames[id] ?? "0x\(String(id, radix: 16))" }
}
