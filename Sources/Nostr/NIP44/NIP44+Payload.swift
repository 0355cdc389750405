import Base64Encoding

extension NIP44 {
    /// A decoded NIP-44 v2 payload.
    ///
    ///     payload    = base64( version ‖ nonce ‖ ciphertext ‖ mac )
    ///     version    = 0x02                                   (1 byte)
    ///     nonce      = 32 random bytes, the HKDF info          (32 bytes)
    ///     ciphertext = ChaCha20(padded plaintext)              (34...65538 bytes; extended
    ///                                                           prefix: 65542... bytes, up to our bound)
    ///     mac        = HMAC-SHA256(hmac_key, nonce ‖ ciphertext) (32 bytes)
    ///
    /// A payload beginning with `#` is reserved for a future non-base64 version.
    public struct Payload: Hashable, Sendable {
        public let nonce: [UInt8]
        public let ciphertext: [UInt8]
        public let mac: [UInt8]

        /// Decoded length bounds: 1 + 32 + 34 + 32 = 99 bytes up to the payload of our largest
        /// plaintext (1 + 32 + 6 + calc_padded_len(1 MiB) + 32). NIP-44 sets no upper bound since
        /// the extended prefix and asks implementations to refuse oversized payloads before decoding.
        static let decodedLengths: ClosedRange<Int> =
            99...(1 + 32 + 6 + Padding.paddedLength(NIP44.plaintextLengths.upperBound) + 32)
        /// The same bounds in base64 characters (with padding): 132 up to ~1.4 million.
        static let encodedLengths: ClosedRange<Int> = 132...((decodedLengths.upperBound + 2) / 3 * 4)

        /// Encrypts and authenticates an already padded buffer (tests use it to reach the padding
        /// checks with payloads whose MAC is valid).
        init(sealing padded: [UInt8], keys: MessageKeys, nonce: [UInt8]) {
            self.nonce = nonce
            ciphertext = ChaCha20.xor(padded, key: keys.chachaKey, nonce: keys.chachaNonce)
            mac = keys.authenticationCode(nonce: nonce, ciphertext: ciphertext)
        }

        /// Parses a payload string, checking everything that can be checked without keys.
        /// - Throws: `.nip44UnsupportedVersion`, `.nip44InvalidPayloadLength`, `.nip44InvalidBase64`
        ///   or `.nip44UnknownVersion`.
        public init(decoding payload: String) throws(NostrError) {
            if payload.utf8.first == UInt8(ascii: "#") {
                throw NostrError(.nip44UnsupportedVersion, "payloads starting with '#' use an unsupported encoding")
            }
            // Length first, before copying anything: a relay can send megabytes.
            guard Self.encodedLengths.contains(payload.utf8.count) else {
                throw NostrError(
                    .nip44InvalidPayloadLength,
                    "payload is \(payload.utf8.count) bytes, expected \(Self.encodedLengths.lowerBound)...\(Self.encodedLengths.upperBound)"
                )
            }
            let data: [UInt8]
            do { data = try Base64.decode(payload) } catch { throw NostrError(.nip44InvalidBase64, error.reason) }
            guard Self.decodedLengths.contains(data.count) else {
                throw NostrError(
                    .nip44InvalidPayloadLength,
                    "payload decodes to \(data.count) bytes, expected \(Self.decodedLengths.lowerBound)...\(Self.decodedLengths.upperBound)"
                )
            }
            guard data[0] == NIP44.version else {
                throw NostrError(.nip44UnknownVersion, "unknown encryption version \(data[0])")
            }
            nonce = Array(data[1..<33])
            ciphertext = Array(data[33..<(data.count - 32)])
            mac = Array(data[(data.count - 32)...])
        }

        /// The base64 text of this payload.
        public func encoded() -> String {
            Base64.encode([NIP44.version] + nonce + ciphertext + mac)
        }
    }
}
