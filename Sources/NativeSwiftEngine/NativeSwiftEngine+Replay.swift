import EngineInterface
import MLS
import Marmot
import Nostr

// Test seams for replaying another engine's captured bytes (Tests/NativeSwiftEngineTests/MDK011Vectors.swift):
// a capture records the private keys of the member it was made for, and its raw MLS messages
// were never put in kind-445 envelopes. Nothing in a run calls these.
extension NativeSwiftEngine {
    /// Holds a key package whose private keys were recorded elsewhere, as if we had made it, so
    /// that a captured Welcome to it can be joined.
    package func installRecordedKeyPackage(_ own: KeyPackagePrivate) throws(EngineError) {
        let reference = try mlsStep { () throws(MLSError) in try own.keyPackage.reference(suite: MarmotCapabilities.suite) }
        keyPackages[reference] = own
    }

    /// A raw captured MLSMessage in the kind-445 envelope any member of `group`'s current epoch
    /// could publish (a fresh one-time key, the epoch's outer key), so that it reaches
    /// `processMessage` as it would from a relay.
    package func envelopeForReplay(_ message: [UInt8], in group: MLSGroupID) throws(EngineError) -> Event {
        try seal(bytes: message, in: try record(group))
    }

    /// The members' leaf count of `group` (the snapshot names no members by leaf).
    package func memberCount(of group: MLSGroupID) throws(EngineError) -> Int {
        try record(group).mls.tree.occupiedLeaves.count
    }
}
