import MLS
import Marmot
import Nostr

/// Test switches for our engine's recovery rules (docs/group-core.md, "Recovery from lost
/// frames"): a task-local value, on outside tests, so tests running in parallel never see each
/// other's switches.
package enum EngineRecovery {
    /// A proposal of the epoch the group can still roll back to is kept at the rollback point.
    @TaskLocal package static var keepsRollbackEpochProposals = true
    /// A competing commit that lost its MIP-03 race is kept at the rollback point, and followed
    /// when the group builds on it (NativeSwiftEngine+RivalBranch.swift).
    @TaskLocal package static var followsBuiltOnRival = true
    /// The rollback point (the state before the last commit applied, with any kept competitor)
    /// is written to the state file, so that a member restarted after applying a commit that then
    /// loses its race can still switch to the winner (restart-matrix boundary 7). A test switch:
    /// off, the file keeps no rollback point.
    @TaskLocal package static var persistsRollbackPoint = true
    /// A branch switch invalidates the messages delivered on the branch left
    /// (NativeSwiftEngine+SupersededPayloads.swift). A test switch: off, they stay shown.
    @TaskLocal package static var invalidatesSupersededPayloads = true
}

extension NativeSwiftEngine {
    /// A proposal of the epoch we just left, while the commit that left it can still lose its
    /// MIP-03 race: kept in the state the rollback would restore. A competing commit that MIP-03
    /// ranks first may cover it by reference (MDK commits a SelfRemove that way), and restored
    /// without it that commit could never be applied: we would stay on the losing commit while
    /// everyone else took the winner (fault matrix, leave-x-rename: bob commits carol's leave
    /// while alice renames; alice, whose rename reached the relay first, met carol's proposal
    /// only after merging it). The caller still answers `wrong_epoch`: nothing changes until
    /// such a commit arrives.
    func keepProposalAtRollbackPoint(_ message: MLSMessage, epoch: UInt64, record: inout GroupRecord, now: UInt64) {
        guard EngineRecovery.keepsRollbackEpochProposals, !message.isFramedCommit, var point = record.rollback,
            point.mls.epoch == epoch
        else { return }
        if MarmotReceiverCheck.rollbackProposalPolicy.isOn, profile == .legacy, !storesAtRollbackPoint(message, point: point) { return }
        var kept = point.mls
        guard case .proposal? = try? kept.process(message, now: now) else { return }
        point.mls = kept
        record.rollback = point
    }

    /// Whether the proposal policy (`proposal(_:message:from:leaf:record:now:)`) would store
    /// `message` at `point`'s epoch: a non-admin may propose only to leave (issue 30, N8: the
    /// rollback point took every proposal, so a non-admin's Remove of another member rode into a
    /// competing commit's state unjudged). An admin's SelfRemove is not kept either: it is ignored
    /// when it arrives in its own epoch.
    func storesAtRollbackPoint(_ message: MLSMessage, point: RollbackPoint) -> Bool {
        guard let content = try? point.mls.inspect(message), case .member(let leaf) = content.content.sender,
            case .proposal(let proposal) = content.content.content,
            let sender = point.mls.tree.leaf(leaf).flatMap({ ApplicationRumor.identity(of: $0.credential) })
        else { return false }
        let senderIsAdmin = point.data.admins.contains(sender)
        switch proposal {
        case .selfRemove: return !senderIsAdmin
        case .remove(let removed) where removed == leaf: return !senderIsAdmin
        case .add, .remove: return senderIsAdmin
        default: return false
        }
    }
}
