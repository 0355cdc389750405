extension NIP44 {
    /// NIP-44 v2 padding, which hides the exact plaintext length. Since nips PR #1907 (merged 2025)
    /// the length prefix has two forms:
    ///
    ///     padded = u16be(len)                ‖ plaintext ‖ zeros   when 1 <= len < 65,536
    ///            | 0x00 0x00 ‖ u32be(len)    ‖ plaintext ‖ zeros   when len >= 65,536
    ///     zeros  = zero bytes up to calc_padded_len(len)
    ///
    /// A u16 of 0 is never a valid short length (plaintexts have at least one byte), so it marks
    /// the extended form; an extended prefix holding a length below 65,536 is invalid.
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

        /// The length prefix's size for a plaintext of `unpaddedLength` bytes: 2, or 6 in the extended form.
        public static func prefixLength(_ unpaddedLength: Int) -> Int {
            unpaddedLength < NIP44.extendedPrefixThreshold ? 2 : 6
        }

        /// Pads `plaintext`.
        /// - Throws: `.nip44InvalidPlaintextLength` outside `NIP44.plaintextLengths`.
        static func pad(_ plaintext: [UInt8]) throws(NostrError) -> [UInt8] {
            guard NIP44.plaintextLengths.contains(plaintext.count) else {
                throw NostrError(
                    .nip44InvalidPlaintextLength,
                    "plaintext must be \(NIP44.plaintextLengths.lowerBound)...\(NIP44.plaintextLengths.upperBound) bytes, got \(plaintext.count)"
                )
            }
            let length = plaintext.count
            var padded: [UInt8] = []
            padded.reserveCapacity(prefixLength(length) + paddedLength(length))
            if length < NIP44.extendedPrefixThreshold {
                padded += [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            } else {
                padded += [0, 0] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) }
            }
            padded += plaintext
            padded += [UInt8](repeating: 0, count: paddedLength(length) - length)
            return padded
        }

        /// Strips the padding of a decrypted `padded` buffer.
        /// - Throws: `.nip44InvalidPadding` when the length prefix is 0, is an extended prefix below
        ///   65,536 or above `NIP44.plaintextLengths`, points past the buffer, or disagrees with the
        ///   buffer's size.
        static func unpad(_ padded: [UInt8]) throws(NostrError) -> [UInt8] {
            guard padded.count >= 2 else {
                throw NostrError(.nip44InvalidPadding, "padded plaintext shorter than its length prefix")
            }
            var length = Int(padded[0]) << 8 | Int(padded[1])
            var prefix = 2
            if length == 0 {
                guard padded.count >= 6 else {
                    throw NostrError(.nip44InvalidPadding, "extended length prefix cut short: \(padded.count) bytes")
                }
                length = padded[2..<6].reduce(0) { $0 << 8 | Int($1) }
                prefix = 6
                guard length >= NIP44.extendedPrefixThreshold else {
                    throw NostrError(.nip44InvalidPadding, "extended length prefix holds \(length), below \(NIP44.extendedPrefixThreshold)")
                }
                // Checked before the size comparison so that no arithmetic runs on a length we refuse.
                guard length <= NIP44.plaintextLengths.upperBound else {
                    throw NostrError(
                        .nip44InvalidPadding, "extended length \(length) exceeds our limit of \(NIP44.plaintextLengths.upperBound)")
                }
            }
            guard padded.count == prefix + paddedLength(length) else {
                throw NostrError(
                    .nip44InvalidPadding,
                    "length prefix \(length) implies \(prefix + paddedLength(length)) padded bytes, got \(padded.count)"
                )
            }
            // The size check above guarantees prefix + length <= padded.count, since paddedLength(n) >= n.
            return Array(padded[prefix..<(prefix + length)])
        }
    }
}
