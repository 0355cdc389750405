// Building blocks of the engine state file (docs/engine-state-format.md), shared by the MLS state
// encodings here and the engine's in NativeSwiftEngine. The state file is not an RFC 9420 message,
// but it is written in the same TLS presentation language so that one codec, already hardened
// against hostile bytes, reads it.
//
//   uint8 Bool;                                   // 0 or 1, nothing else
//   struct { K key; V value; } Entry;
//   Entry map<V>;                                 // keys strictly ascending
//
// Maps are written in ascending key order and read back only in that order, so that one state has
// exactly one encoding: the engine compares encodings to skip writes of an unchanged state, and a
// duplicated key cannot smuggle a second value past the reader.
import ErrorCodes
import TLSCodec

extension TLSCodecError.Code {
    /// Bytes that decode but do not form a state a member could hold (a key for a node outside the
    /// tree, private keys that do not match the tree, a map whose keys are not ascending).
    public static let inconsistentState = Self("state.inconsistent")
}

/// Orders byte strings for the maps of the state file.
package func bytesAscending(_ a: [UInt8], _ b: [UInt8]) -> Bool { a.lexicographicallyPrecedes(b) }

extension TLSWriter {
    /// Writes `Bool` as one byte, 0 or 1.
    package mutating func writeBool(_ value: Bool) { write(UInt8(value ? 1 : 0)) }

    /// Writes `Entry map<V>` with the entries in ascending key order.
    package mutating func writeMap<K, V>(
        _ map: [K: V], by ascending: (K, K) -> Bool, _ entry: (inout TLSWriter, K, V) -> Void
    ) {
        writeVector { w in
            for (key, value) in map.sorted(by: { ascending($0.key, $1.key) }) { entry(&w, key, value) }
        }
    }

    /// Writes a map of byte strings to byte strings.
    package mutating func writeBytesMap(_ map: [[UInt8]: [UInt8]]) {
        writeMap(map, by: bytesAscending) { w, key, value in
            w.writeOpaque(key)
            w.writeOpaque(value)
        }
    }

    /// Writes a map of `uint32` to byte strings.
    package mutating func writeIndexedBytes(_ map: [UInt32: [UInt8]]) {
        writeMap(map, by: <) { w, key, value in
            w.write(key)
            w.writeOpaque(value)
        }
    }
}

extension TLSReader {
    /// Reads a `Bool`; any byte but 0 or 1 is refused.
    package mutating func readBool() throws(TLSCodecError) -> Bool {
        switch try readUInt8() {
        case 0: return false
        case 1: return true
        case let other: throw TLSCodecError(.invalidValue, "boolean byte \(other) is not 0 or 1")
        }
    }

    /// Reads `Entry map<V>`, refusing keys that are not strictly ascending.
    package mutating func readMap<K: Hashable, V>(
        _ what: String, by ascending: (K, K) -> Bool, _ entry: (inout TLSReader) throws(TLSCodecError) -> (K, V)
    ) throws(TLSCodecError) -> [K: V] {
        let entries = try readVector(entry)
        var map: [K: V] = [:]
        var previous: K?
        for (key, value) in entries {
            if let previous, !ascending(previous, key) {
                throw TLSCodecError(.inconsistentState, "\(what): keys are not strictly ascending")
            }
            map[key] = value
            previous = key
        }
        return map
    }

    /// Reads a map of byte strings to byte strings.
    package mutating func readBytesMap(_ what: String) throws(TLSCodecError) -> [[UInt8]: [UInt8]] {
        try readMap(what, by: bytesAscending) { (r: inout TLSReader) throws(TLSCodecError) in (try r.readOpaque(), try r.readOpaque()) }
    }

    /// Reads a map of `uint32` to byte strings.
    package mutating func readIndexedBytes(_ what: String) throws(TLSCodecError) -> [UInt32: [UInt8]] {
        try readMap(what, by: <) { (r: inout TLSReader) throws(TLSCodecError) in (try r.readUInt32(), try r.readOpaque()) }
    }

    /// Reads `opaque value<V>` that must be exactly `count` bytes long.
    package mutating func readOpaque(exactly count: Int, _ what: String) throws(TLSCodecError) -> [UInt8] {
        let value = try readOpaque()
        guard value.count == count else {
            throw TLSCodecError(.inconsistentState, "\(what) is \(value.count) bytes, not \(count)")
        }
        return value
    }
}
