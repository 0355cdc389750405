/// One member's exact view of a group's MLS state, for conformance comparison only: two members on
/// the same epoch number can still be on different states (a silent fork), and only values derived
/// from the whole state tell them apart. Every field but the epoch is optional because engines
/// expose different subsets (docs/driver-protocol.md, `exact_state`); the convergence oracle
/// compares a field between two members only when both expose it.
///
/// All digests are lowercase hex.
public struct ExactGroupState: Hashable, Sendable {
    public let epoch: UInt64
    /// SHA-256 of the TLS-serialized ratchet tree (`optional<Node> ratchet_tree<V>`, RFC 9420 §12.4.3.3,
    /// trailing blank nodes removed): what MDK's `get_ratchet_tree_info` reports as `tree_hash`.
    public let ratchetTreeDigest: String?
    /// The RFC 9420 §7.8 tree hash of the root (`GroupContext.tree_hash`).
    public let treeHash: String?
    /// `GroupContext.confirmed_transcript_hash`.
    public let confirmedTranscriptHash: String?
    /// SHA-256 of the TLS-serialized `GroupContext` (a field of the Marmot conformance snapshot).
    public let groupContextHash: String?
    /// The Marmot conformance exporter commitment (marmot-protocol/marmot, foundation/conformance.md):
    /// `SHA256("marmot-convergence-conformance-v1" || 0x00 || MLS-Exporter("marmot", "convergence-conformance-v1", 32))`.
    /// The raw exporter secret never leaves the engine.
    public let exporterCommitment: String?

    public init(
        epoch: UInt64, ratchetTreeDigest: String? = nil, treeHash: String? = nil, confirmedTranscriptHash: String? = nil,
        groupContextHash: String? = nil, exporterCommitment: String? = nil
    ) {
        self.epoch = epoch
        self.ratchetTreeDigest = ratchetTreeDigest
        self.treeHash = treeHash
        self.confirmedTranscriptHash = confirmedTranscriptHash
        self.groupContextHash = groupContextHash
        self.exporterCommitment = exporterCommitment
    }

    /// The exporter label and context of the Marmot conformance commitment.
    public static let exporterLabel = "marmot"
    public static let exporterContext = "convergence-conformance-v1"
    /// The 33-byte domain string hashed before the exporter secret.
    public static let commitmentDomain = "marmot-convergence-conformance-v1"

    /// Every field with its protocol name, absent ones as nil, in a fixed order (for diffs).
    public var fields: [(name: String, value: String?)] {
        [
            ("epoch", String(epoch)), ("exporter_commitment", exporterCommitment), ("group_context_hash", groupContextHash),
            ("ratchet_tree_digest", ratchetTreeDigest), ("tree_hash", treeHash), ("confirmed_transcript_hash", confirmedTranscriptHash),
        ]
    }
}
