import EngineInterface
import MLS
import Marmot
import Nostr

// A commit MIP-03 ranks first wins its epoch only while nobody has built on the competitor
// (docs/group-core.md, "Recovery from lost frames", "Commits the group built on").
//
// MIP-03 asks every client to apply, of the commits for one epoch, the one with the earliest
// created_at (then the smallest id), and to "retain previous group states temporarily to enable
// recovery from forked states". We keep one such state: the one before the commit we applied last.
// A member that has applied a commit of the next epoch on top of the competitor has no state left
// to go back to, so it refuses the earlier commit for good. Whoever applied the earlier commit must
// then follow the competitor, or stay on a fork of its own: bob's rename, its first publish lost,
// reaches the relay only after everyone else applied alice's add and dave's self-update on top
// of it, and bob, who merged his own rename at its late OK, could read nobody (fault matrix,
// add-x-rename and add-x-remove, bob-commit drop and delay). So the losing competitor of the
// epoch we could still roll back to is applied to that state and kept beside it; a commit that
// opens only in the competitor's next epoch and applies there is proof that the group built on
// it, and we move to that branch: the competitor, then the commit. The caller learns which
// commit was left (`ProcessingResult.rivalCommit`), so that what it was for can be asked again.

// Its test switch, `EngineRecovery.followsBuiltOnRival`, is declared with the engine's other
// recovery switches (NativeSwiftEngine+RollbackProposals.swift).

/// The losing competitor of the epoch a rollback point holds, applied to that state.
struct RivalBranch: Sendable {
    /// The group after the competing commit, applied to the rollback state.
    var mls: Group
    /// The competing commit's event: its place in MIP-03 order.
    var createdAt: UInt64
    var eventID: EventID
    /// Current profile: the competing commit's committer account (its place in the order).
    var committer: [UInt8]? = nil
}

extension NativeSwiftEngine {
    /// A competing commit for the epoch we can roll back to that MIP-03 ranks after the one we
    /// applied: applied to the rollback state and kept there (the best-ranked one, if several),
    /// in case the group builds on it. Nothing else changes: the caller still answers `wrong_epoch`.
    func keepRivalAtRollbackPoint(_ message: MLSMessage, epoch: UInt64, event: Event, record: inout GroupRecord, now: UInt64) {
        guard EngineRecovery.followsBuiltOnRival, message.isFramedCommit, var point = record.rollback,
            point.mls.epoch == epoch
        else { return }
        let committer = committerAccount(of: message, at: point.mls)
        if let kept = point.rival, !ranksFirst((event.createdAt, event.id, committer), over: (kept.createdAt, kept.eventID, kept.committer))
        {
            return
        }
        var branch = record
        branch.restore(point)
        // A competitor that takes us out leaves no branch of ours to follow.
        guard case .commit = ingestCurrent(message, event: event, record: &branch, now: now), branch.state == .active
        else { return }
        // The commit we applied, republished later (issue 30, N1): no rival, the same branch.
        if Self.isSameCommit(branch.mls, as: record.mls), MarmotReceiverCheck.replayedCommit.isOn { return }
        point.rival = RivalBranch(mls: branch.mls, createdAt: event.createdAt, eventID: event.id, committer: committer)
        record.rollback = point
    }

    /// A better competing commit replaced the one we had applied (`replaced`, the record before):
    /// the replaced commit is now the losing competitor, and the group may already have built on
    /// it (a member that applied it first, as we did, may have committed on top before hearing of
    /// the better one), so its branch is kept like any losing competitor's.
    func keepReplacedAsRival(_ replaced: GroupRecord, of point: RollbackPoint, in record: inout GroupRecord) {
        guard EngineRecovery.followsBuiltOnRival, replaced.state == .active, replaced.mls.epoch == point.mls.epoch + 1,
            record.rollback != nil
        else { return }
        record.rollback?.rival = RivalBranch(
            mls: replaced.mls, createdAt: point.createdAt, eventID: point.eventID, committer: point.committer)
    }

    /// An event no key of ours opens: if it is a commit of the kept competitor's next epoch that
    /// applies there, the group built on the competitor; we leave the commit we applied for it.
    /// Only while that commit is the last we applied (the rollback point is still the epoch they
    /// competed for): once we built on it ourselves, we stay. Nil when the event is no such commit.
    func followRivalBranch(_ event: Event, record: inout GroupRecord, now: UInt64) -> ProcessingResult? {
        guard EngineRecovery.followsBuiltOnRival, let point = record.rollback, let rival = point.rival,
            record.mls.epoch == point.mls.epoch + 1,
            let plain = try? GroupEventCipher.open(event.content, key: GroupEventKey.of(rival.mls)),
            let message = try? MLSMessage(tlsBytes: plain), message.isFramedCommit,
            message.framedEpoch == rival.mls.epoch
        else { return nil }
        var branch = record
        branch.restore(point)
        do {
            try branch.advance(to: rival.mls, endedAt: rival.createdAt)
        } catch {
            return nil
        }
        branch.failed.remove(rival.eventID)
        GroupRecord.remember(rival.eventID, in: &branch.processed, cap: retainedEventIDs)
        guard case .commit = ingestCurrent(message, event: event, record: &branch, now: now) else { return nil }
        GroupRecord.remember(event.id, in: &branch.processed, cap: retainedEventIDs)
        // Boundary 7: the branch of the commit we had applied is left; the competitor's is selected.
        branch.superseded.remove(rival.eventID)
        GroupRecord.remember(point.eventID, in: &branch.superseded, cap: retainedEventIDs)
        invalidatePayloads(of: point, in: &branch)
        switchedBranch = true
        record = branch
        return .rivalCommit(record.id, replaced: point.eventID, competitor: rival.eventID)
    }
}
