import EngineInterface
import MLS
import Marmot
import Nostr

// The hostile member's attacks on what a member keeps (issue 30, N8 and N10): a non-admin's
// proposal for the epoch a member can still roll back to, and a flood of handled events past the
// cap on remembered wrapper ids. As the others, each is valid up to the rule it tests, and our own
// group state does not move.
extension NativeSwiftEngine {
    /// How many proposals `proposal-flood` sends: our cap on remembered wrapper ids (the product
    /// cap, or the scenario's `retained-event-ids` knob, which every member of ours then shares)
    /// and a few more, so that every receiver of ours prunes. A receiver uses up the key of each
    /// proposal it ignores (RFC 9420 §9.2), so a flood longer than the sender ratchet's forward
    /// window (1,024) is read to its end, and the sender's next message after it is read too
    /// (`RetentionAttackTests`).
    var floodSize: Int { retainedEventIDs + 4 }

    /// Builds `rollback-epoch-proposal` or `proposal-flood` in `record`'s group.
    func retentionAttack(_ request: ForgeRequest, in record: inout GroupRecord, now: UInt64) throws(EngineError) -> [Event] {
        guard record.profile == .legacy else {
            throw EngineError(.invalidInput, "attack \(request.attack.rawValue) is built for legacy groups (MIP-03's created_at race)")
        }
        switch request.attack {
        case .rollbackEpochProposal: return try rollbackEpochProposal(request, in: &record, now: now)
        case .proposalFlood: return try proposalFlood(in: &record, now: now)
        default: throw EngineError(.invalidInput, "attack \(request.attack.rawValue) is not a retention attack")
        }
    }

    /// N8: in the epoch the last commit ended (the one a member can still roll back to), our
    /// Remove of the target, then a self-update of ours carrying it by reference, both dated before
    /// that commit so that MIP-03's created_at rule ranks the self-update first. A receiver that
    /// kept the Remove at its rollback point, unjudged by the proposal policy, has it ready when the
    /// self-update makes it roll back: the Remove would ride in. We adopt neither (our state stays
    /// on the commit everyone applied).
    func rollbackEpochProposal(_ request: ForgeRequest, in record: inout GroupRecord, now: UInt64) throws(EngineError) -> [Event] {
        guard let rollback = record.rollback, rollback.createdAt > 1 else {
            throw EngineError(.invalidInput, "no commit to undo since we joined")
        }
        var earlier = record
        earlier.restore(rollback)
        let removed = try leaf(of: request, in: earlier)
        let (proposal, commit) = try mlsStep { () throws(MLSError) in
            // A PublicMessage, so that we can store our own proposal and commit it by reference
            // (our own PrivateMessage would not open for us: its key is consumed as it is sent).
            let proposal = try earlier.mls.uncheckedMessage(
                .proposal(.remove(leaf: removed)), flaw: nil, as: .publicMessage, using: &random)
            _ = try earlier.mls.process(proposal, now: now)
            return (proposal, try earlier.mls.uncheckedCommit(adding: [], flaw: nil, now: now, using: &random).commit)
        }
        let events = [
            try seal(proposal, in: earlier, createdAt: rollback.createdAt - 2),
            try seal(commit, in: earlier, createdAt: rollback.createdAt - 1),
        ]
        for event in events { record.ownEvents[event.id] = .forgery }
        return events
    }

    /// N10: `floodSize` proposals of ours in the current epoch, each a GroupContextExtensions that
    /// changes nothing (a non-admin's is ignored, yet its wrapper id is remembered as handled). Each
    /// wrapper's `created_at` is chosen, within the hour before now, so that its id starts with
    /// 0xFF: a receiver that keeps the largest ids (GroupRecord.remember drops the smallest) then
    /// forgets every id it held before the flood, as an attacker grinding ids would make it.
    func proposalFlood(in record: inout GroupRecord, now: UInt64) throws(EngineError) -> [Event] {
        let key = GroupEventKey.of(record.mls)
        let h = record.data.nostrGroupID.hexString
        var events: [Event] = []
        events.reserveCapacity(floodSize)
        for _ in 0..<floodSize {
            let message = try mlsStep { () throws(MLSError) in
                try record.mls.uncheckedMessage(
                    .proposal(.groupContextExtensions(record.mls.context.extensions)), flaw: nil, as: .privateMessage, using: &random)
            }
            let content = try marmotStep { () throws(MarmotError) in
                try GroupEventCipher.seal(try tlsEncoded(message), key: key, using: &random)
            }
            let oneTime = Keypair.generate(using: &random)
            // Not found within the hour (about e^-14 per event): dated now, its id as it falls.
            var unsigned = UnsignedEvent(
                pubkey: oneTime.publicKey, createdAt: now, kind: .groupEvent, tags: [["h", h], Base64Content.tag], content: content)
            for back in 0..<min(UInt64(3600), now + 1) {
                unsigned.createdAt = now - back
                if unsigned.id.bytes[0] == 0xFF { break }
                unsigned.createdAt = now
            }
            let event: Event
            do { event = try unsigned.signed(with: oneTime, using: &random) } catch {
                throw EngineError(.engineError, "signing a flood event failed: \(error)")
            }
            record.ownEvents[event.id] = .forgery
            events.append(event)
        }
        return events
    }
}
