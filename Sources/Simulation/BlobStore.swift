// A minimal Blossom-like blob store for group images (MIP-01): blobs are named by the SHA-256 of
// their bytes, as a Blossom server names them. One store for the whole world; uploads and fetches
// take no virtual time (the relays carry the commits that name the blobs, and their timing is what
// scenarios are about).
import Crypto
import HexEncoding

/// How the store misbehaves, for scenarios about pictures that must not be shown.
package enum BlobFault: String, Hashable, Sendable, CaseIterable {
    /// Keeps each blob uploaded from now on with one bit flipped, under its true hash (a corrupting
    /// server or path): readers must find that the bytes are not the ones the hash names.
    case tamper
    /// Drops each blob uploaded from now on (a server that lost it): readers find nothing.
    case lose
}

/// The blobs, by the lowercase hex SHA-256 of their bytes as uploaded.
struct BlobStore {
    private(set) var blobs: [String: [UInt8]] = [:]
    var fault: BlobFault?

    static func address(of bytes: [UInt8]) -> String { Array(SHA256.hash(data: bytes)).hexString }

    /// Stores `bytes` (as the fault leaves them); returns its address and what happened, for the trace.
    mutating func upload(_ bytes: [UInt8]) -> (hash: String, outcome: String) {
        let hash = Self.address(of: bytes)
        switch fault {
        case nil:
            blobs[hash] = bytes
            return (hash, "stored")
        case .lose?:
            return (hash, "lost")
        case .tamper?:
            var corrupted = bytes
            if !corrupted.isEmpty { corrupted[corrupted.count / 2] ^= 0x01 }
            blobs[hash] = corrupted
            return (hash, "stored tampered")
        }
    }

    func blob(_ hash: String) -> [UInt8]? { blobs[hash] }
}
