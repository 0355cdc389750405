// The exact-state query: digests of a member's MLS state that differ whenever two states differ,
// for the convergence oracle (conformance only; nothing here is sent on the wire).
import EngineInterface
import HexEncoding
import MLS
import TLSCodec

extension NativeSwiftEngine {
    package func exactState(of group: MLSGroupID) async throws(EngineError) -> ExactGroupState {
        try Self.exactState(of: record(group).mls)
    }

    /// Every digest our MLS exposes; `ratchetTreeDigest` is computed as MDK computes its `tree_hash`
    /// (SHA-256 of the serialized tree) so that mixed groups compare it across engines.
    static func exactState(of mls: Group) throws(EngineError) -> ExactGroupState {
        let suite = mls.suite
        let tree: [UInt8]
        let context: [UInt8]
        do {
            tree = try mls.tree.wire.tlsSerialized()
            context = try mls.context.tlsSerialized()
        } catch {
            throw EngineError(.internal, "the group state does not serialize: \(error)")
        }
        let secret = mls.export(
            label: ExactGroupState.exporterLabel, context: Array(ExactGroupState.exporterContext.utf8), length: 32)
        let commitment = suite.hash(Array(ExactGroupState.commitmentDomain.utf8) + [0x00] + secret)
        return ExactGroupState(
            epoch: mls.epoch, ratchetTreeDigest: suite.hash(tree).hexString, treeHash: mls.context.treeHash.hexString,
            confirmedTranscriptHash: mls.context.confirmedTranscriptHash.hexString, groupContextHash: suite.hash(context).hexString,
            exporterCommitment: commitment.hexString)
    }
}
