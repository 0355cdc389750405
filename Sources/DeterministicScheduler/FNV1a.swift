// Non-cryptographic hashes for trace fingerprints and stream labels.
//
// FNV-1a (Fowler, Noll, Vo; draft-eastlake-fnv): for each byte, xor it into the hash, then multiply
// by the FNV prime. The 128-bit variant fingerprints traces: collisions between two honest runs are
// negligible, and this target stays free of any crypto dependency. It is not meant to resist an
// adversary, which a replay comparison does not need.

/// 64-bit FNV-1a.
package enum FNV1a64 {
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The FNV-1a 64 hash of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        absorb(bytes, into: offsetBasis)
    }

    /// Continues the hash `value` over `bytes` (incremental hashing).
    package static func absorb(_ bytes: some Sequence<UInt8>, into value: UInt64) -> UInt64 {
        var value = value
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* prime
        }
        return value
    }
}

/// Incremental 128-bit FNV-1a.
package struct FNV1a128: Hashable, Sendable {
    static let offsetBasis: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d
    static let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013B

    /// The hash of everything absorbed so far.
    package private(set) var value: UInt128 = offsetBasis

    /// A hasher that has absorbed nothing (its value is the offset basis).
    package init() {}

    /// Absorbs `bytes`.
    package mutating func absorb(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt128(byte)
            value = value &* Self.prime
        }
    }

    /// Absorbs a length-prefixed field, so that field boundaries are part of the hash
    /// (`"ab","c"` and `"a","bc"` differ).
    package mutating func absorbField(_ text: String) {
        let bytes = Array(text.utf8)
        absorb(UInt64(bytes.count).littleEndianBytes)
        absorb(bytes)
    }

    /// 32 lowercase hex digits of the current value.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }
}

extension UInt64 {
    var littleEndianBytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: self >> ($0 * 8)) }
    }
}
