import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

// Receiving in the current profile: proposals and commits are judged by the current rules
// (CurrentRules.swift) inside MLS, before any state changes; competing commits of one epoch are
// ordered by protocol-core's convergence rules, never by created_at, event id or arrival.
extension NativeSwiftEngine {
    /// A proposal of the current epoch, judged in its source epoch and kept for a later commit; a
    /// (non-admin's) SelfRemove is answered at once with our commit of it, as MDK's auto-committer
    /// does, so that a leave completes without waiting for an admin.
    func currentProposal(_ proposal: Proposal, message: MLSMessage, record: inout GroupRecord, now: UInt64)
        -> ProcessingResult
    {
        var next = record.mls
        do { _ = try next.process(message, now: now, judge: CurrentRules.judgeChange) } catch {
            // A non-admin's proposal to change members or group state is not stored, so no
            // commit of ours can carry it, and answered as the legacy profile answers it:
            // ignored, not a rejection (a commit that carries it is the rejection).
            if error.code == .refusedByCaller, error.reason.hasPrefix(CurrentRules.nonAdminProposal) {
                return .ignoredProposal(record.id, reason: "proposal_from_non_admin")
            }
            return Self.currentRefusal(error, record.id)
        }
        record.mls = next
        guard case .selfRemove = proposal else { return .pendingProposal(record.id) }
        return commitLeave(record: &record, now: now)
    }

    /// A commit of the current epoch: MLS applies it only if the current rules accept it.
    /// `disbands`: the commit moves the lifecycle (0x800c) to disbanded; a member it removes
    /// (every member but the committer) then holds the group as disbanded, not merely left.
    func currentCommit(
        _ message: MLSMessage, from sender: PublicKey, disbands: Bool = false, event: Event, record: inout GroupRecord, now: UInt64
    ) -> ProcessingResult {
        let id = record.id
        var next = record.mls
        do { _ = try next.process(message, now: now, judge: CurrentRules.judgeChange) } catch {
            return Self.currentRefusal(error, id)
        }
        let before = RollbackPoint(before: record, createdAt: event.createdAt, eventID: event.id, committer: sender.bytes)
        if !next.isActive {
            record.mls = next
            record.pending = nil
            record.state = disbands ? .disbanded : .inactive
            return .commit(id)
        }
        if let routing = try? Self.groupData(next.context.extensions, profile),
            let refusal = routingCollision(moving: record, to: routing.nostrGroupID)
        {
            return .rejected(refusal)
        }
        do { try record.advance(to: next, endedAt: event.createdAt) } catch { return .rejected(EngineError(error)) }
        record.rollback = before
        return .commit(id)
    }

    /// Whether `commit` carries, by value, the lifecycle update to disbanded (a disband is valid
    /// only inline, group-lifecycle-v1.md; CurrentRules has judged its shape by then).
    static func disbands(_ commit: Commit) -> Bool {
        let disbanded = GroupLifecycle.disbanded.encoded()
        return commit.proposals.contains {
            guard case .proposal(.appDataUpdate(let update)) = $0, update.componentID == AppComponentID.groupLifecycle.rawValue,
                case .update(let data) = update.operation
            else { return false }
            return data == disbanded
        }
    }

    /// How a refused proposal or commit is reported: a refusal by the current rules with its
    /// reason (a non-admin's commit as `commit_from_non_admin`); MLS's own as unprocessable.
    static func currentRefusal(_ error: MLSError, _ id: MLSGroupID) -> ProcessingResult {
        // A commit naming a proposal not received (yet): the bare code, which processMessage
        // does not remember as failed, so that it goes through once the proposal arrives.
        if error.code == .unknownProposal { return .unprocessable(id, reason: error.code.name) }
        guard error.code == .refusedByCaller else { return .unprocessable(id, reason: "\(error.code.name): \(error.reason)") }
        if error.reason.contains("non-admin") || error.reason.contains("only admins") {
            return .rejected(EngineError(.commitFromNonAdmin, error.reason))
        }
        if error.reason.hasPrefix(MarmotError.Code.profileMismatch.name) {
            return .rejected(EngineError(.profileMismatch, error.reason))
        }
        return .unprocessable(id, reason: "\(error.code.name): \(error.reason)")
    }

    /// The account of the member that sent `message` in `group`'s epoch (nil when it does not
    /// open there or names no member).
    func committerAccount(of message: MLSMessage, at group: Group) -> [UInt8]? {
        guard let content = try? group.inspect(message), case .member(let leaf) = content.content.sender,
            case .basic(let identity)? = group.tree.leaf(leaf)?.credential
        else { return nil }
        return identity
    }

    /// Whether a competing commit of one epoch goes before another.
    ///
    /// legacy (MIP-03): the earlier created_at, then the smaller event id.
    /// current (protocol-core convergence): a witnessed branch is never replaced (the caller
    /// checks), a deeper branch is followed (NativeSwiftEngine+RivalBranch.swift), and between two
    /// unwitnessed commits of equal depth the lower committer account wins; created_at, the event
    /// id and arrival order decide nothing. A commit whose committer we cannot name never wins.
    func ranksFirst(
        _ candidate: (createdAt: UInt64, id: EventID, committer: [UInt8]?),
        over applied: (createdAt: UInt64, id: EventID, committer: [UInt8]?)
    ) -> Bool {
        switch profile {
        case .legacy:
            return CommitOrdering.prefers((candidate.createdAt, candidate.id), over: (applied.createdAt, applied.id))
        case .current:
            guard let mine = candidate.committer else { return false }
            guard let theirs = applied.committer else { return true }
            return mine.lexicographicallyPrecedes(theirs)
        }
    }
}
