/// BIP-173 bech32 (the original checksum constant 1, not bech32m), the text encoding of NIP-19.
///
///     bech32 = hrp "1" data checksum
///     hrp    = 1*83 (%x21-7E)          ; human-readable part, e.g. "npub"
///     data   = *("qpzry9x8gf2tvdw0s3jn54khce6mua7l")   ; 5-bit groups of the payload, zero-padded
///     checksum = 6 5-bit groups of the BCH code over (expanded hrp ‖ data)
///     total length <= 90; all lower case or all upper case
enum Bech32 {
    static let maximumLength = 90
    private static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let generator: [UInt32] = [0x3B6A_57B2, 0x2650_8E6D, 0x1EA1_19FA, 0x3D42_33DD, 0x2A14_62B3]

    /// Reverse lookup of `charset`: 0xFF marks a byte that is not a data character.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, char) in charset.enumerated() { table[Int(char)] = UInt8(value) }
        return table
    }()

    /// Encodes `payload` (8-bit bytes) under the lower-case `hrp`.
    static func encode(hrp: String, payload: [UInt8]) -> String {
        // Regrouping with padding cannot fail.
        encode(hrp: hrp, fiveBitGroups: regroup(payload, from: 8, to: 5, pad: true) ?? [])
    }

    /// Encodes raw 5-bit groups (each below 32) with their checksum; tests use it to build
    /// strings whose checksum is right but whose padding or length is not.
    static func encode(hrp: String, fiveBitGroups data: [UInt8]) -> String {
        let hrpBytes = Array(hrp.utf8)
        let residue = polymod(expand(hrpBytes) + data + [0, 0, 0, 0, 0, 0]) ^ 1
        let checksum = (0..<6).map { UInt8(truncatingIfNeeded: residue >> (5 * (5 - UInt32($0)))) & 31 }
        let dataChars = (data + checksum).map { charset[Int($0)] }
        return String(decoding: hrpBytes + [UInt8(ascii: "1")] + dataChars, as: UTF8.self)
    }

    /// Decodes a bech32 string into its lower-cased human-readable part and 8-bit payload.
    /// - Throws: `.nip19TooLong`, `.nip19InvalidCharacter`, `.nip19MixedCase`, `.nip19MissingSeparator`,
    ///   `.nip19InvalidLength`, `.nip19InvalidChecksum` or `.nip19InvalidPadding`.
    static func decode(_ text: String) throws(NostrError) -> (hrp: String, payload: [UInt8]) {
        let raw = Array(text.utf8)
        guard raw.count <= maximumLength else {
            throw NostrError(.nip19TooLong, "bech32 strings are at most \(maximumLength) characters, got \(raw.count)")
        }
        if let offset = raw.firstIndex(where: { !(0x21...0x7E).contains($0) }) {
            throw NostrError(.nip19InvalidCharacter, "byte \(raw[offset]) at \(offset) is not printable ASCII")
        }
        let hasLower = raw.contains { (0x61...0x7A).contains($0) }
        let hasUpper = raw.contains { (0x41...0x5A).contains($0) }
        guard !(hasLower && hasUpper) else {
            throw NostrError(.nip19MixedCase, "bech32 strings must be all lower case or all upper case")
        }
        let lower = raw.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        // The separator is the last "1": the human-readable part may itself contain "1".
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator > 0 else {
            throw NostrError(.nip19MissingSeparator, "no '1' separating a non-empty human-readable part from the data")
        }
        let hrp = Array(lower[..<separator])
        var data = [UInt8]()
        for (offset, char) in lower[(separator + 1)...].enumerated() {
            let value = values[Int(char)]
            guard value != 0xFF else {
                let shown = Character(Unicode.Scalar(char))
                throw NostrError(
                    .nip19InvalidCharacter, "'\(shown)' at \(separator + 1 + offset) is not a bech32 data character"
                )
            }
            data.append(value)
        }
        guard data.count >= 6 else {
            throw NostrError(
                .nip19InvalidLength, "data part of \(data.count) characters cannot hold the 6-character checksum"
            )
        }
        guard polymod(expand(hrp) + data) == 1 else {
            throw NostrError(.nip19InvalidChecksum, "bech32 checksum does not match")
        }
        guard let payload = regroup(Array(data.dropLast(6)), from: 5, to: 8, pad: false) else {
            throw NostrError(.nip19InvalidPadding, "data is not a whole number of bytes followed by zero padding")
        }
        return (String(decoding: hrp, as: UTF8.self), payload)
    }

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        var checksum: UInt32 = 1
        for value in values {
            let top = checksum >> 25
            checksum = (checksum & 0x1FF_FFFF) << 5 ^ UInt32(value)
            for i in 0..<5 where (top >> i) & 1 == 1 { checksum ^= generator[i] }
        }
        return checksum
    }

    /// The human-readable part as it enters the checksum: high bits of each byte, 0, low bits.
    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    /// Regroups bit strings between widths; without `pad`, leftover bits must be fewer than
    /// `from` and zero (BIP-173), otherwise nil.
    private static func regroup(_ input: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var accumulator = 0
        var bits = 0
        let mask = (1 << to) - 1
        var out = [UInt8]()
        for value in input {
            accumulator = (accumulator << from | Int(value)) & ((1 << (from + to - 1)) - 1)
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((accumulator >> bits) & mask))
            }
        }
        if pad {
            if bits > 0 { out.append(UInt8((accumulator << (to - bits)) & mask)) }
        } else if bits >= from || (accumulator << (to - bits)) & mask != 0 {
            return nil
        }
        return out
    }
}
