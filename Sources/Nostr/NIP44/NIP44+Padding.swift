extension NIP44 {
    /// NIP-44 v2 padding, which hides the exact plaintext length:
    ///
    ///     padded = u16be(unpadded_len) ‖ plaintext ‖ zero bytes up to calc_padded_len(unpadded_len)
    public enum Padding {
        /// The padded length of a plaintext of `unpaddedLength` bytes: 32 up to 32 bytes, then steps of
        /// 32 bytes up to 256, then steps of one eighth of the next power of two.
        public static func paddedLength(_ unpaddedLength: Int) -> Int {
            guard unpaddedLength > 32 else { return 32 }
            // floor(log2(n - 1)) + 1 is the bit width of n - 1.
            let nextPower = 1 << (Int.bitWidth - (unpaddedLength - 1).leadingZeroBitCount)
            let chunk = nextPower <= 256 ? 32 : nextPower / 8
            return chunk * ((unpaddedLength - 1) / chunk + 1)
        }

        /// Pads `plaintext`.
        /// - Throws: `.nip44InvalidPlaintextLength` outside 1…65,535 bytes.
        static func pad(_ plaintext: [UInt8]) throws(NostrError) -> [UInt8] {
            guard NIP44.plaintextLengths.contains(plaintext.count) else {
                throw NostrError(
                    .nip44InvalidPlaintextLength, "plaintext must be 1...65535 bytes, got \(plaintext.count)"
                )
            }
            var padded = [UInt8(truncatingIfNeeded: plaintext.count >> 8), UInt8(truncatingIfNeeded: plaintext.count)]
            padded += plaintext
            padded += [UInt8](repeating: 0, count: paddedLength(plaintext.count) - plaintext.count)
            return padded
        }

        /// Strips the padding of a decrypted `padded` buffer.
        /// - Throws: `.nip44InvalidPadding` when the length prefix is 0, points past the buffer, or
        ///   disagrees with the buffer's size.
        static func unpad(_ padded: [UInt8]) throws(NostrError) -> [UInt8] {
            guard padded.count >= 2 else {
                throw NostrError(.nip44InvalidPadding, "padded plaintext shorter than its length prefix")
            }
            let length = Int(padded[0]) << 8 | Int(padded[1])
            guard length > 0 else {
                throw NostrError(.nip44InvalidPadding, "length prefix is zero")
            }
            guard padded.count == 2 + paddedLength(length) else {
                throw NostrError(
                    .nip44InvalidPadding,
                    "length prefix \(length) implies \(2 + paddedLength(length)) padded bytes, got \(padded.count)"
                )
            }
            // The size check above guarantees 2 + length <= padded.count, since paddedLength(n) >= n.
            return Array(padded[2..<(2 + length)])
        }
    }
}
