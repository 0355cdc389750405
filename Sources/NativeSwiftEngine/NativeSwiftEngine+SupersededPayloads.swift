import EngineInterface
import MLS
import Marmot
import Nostr

// Payloads of a branch MIP-03 did not select (marmot-protocol/marmot, foundation/conformance.md,
// boundary 7: a selected branch "supersedes previously delivered payloads").
//
// A message read or written in the epoch a commit made belongs to that commit's branch: it was
// encrypted under that epoch's keys, which the members of the winning branch never hold. When a
// competitor replaces the commit (or we follow the branch the group built on), every such message
// is invalidated: taken out of the messages shown and kept as `invalidated` (the snapshot's
// `invalidated:message:<rumor id>` effect; its wrapper's disposition `superseded`). Its identity
// is the rumor id, so the same rumor arriving again in the winning branch (its sender sends it
// again: ``resendInvalidatedMessage(_:in:)``) is shown once more, once.
extension NativeSwiftEngine {
    /// Why our echo of an invalidated message of ours is not shown again.
    static let supersededPayload = "superseded_payload"

    /// The branch of `point`'s commit is left: its messages are invalidated in `record`.
    func invalidatePayloads(of point: RollbackPoint, in record: inout GroupRecord) {
        guard EngineRecovery.invalidatesSupersededPayloads, !point.branchMessages.isEmpty else { return }
        let ids = Set(point.branchMessages)
        let gone = record.messages.filter { ids.contains($0.rumor.id) }
        record.messages.removeAll { ids.contains($0.rumor.id) }
        for message in gone {
            GroupRecord.remember(message.wrapperID, in: &record.superseded, cap: retainedEventIDs)
            if !record.invalidated.contains(where: { $0.rumor.id == message.rumor.id }) { record.invalidated.append(message) }
        }
    }

    /// Whether `event`, which no key of ours opens, is an application message of the losing
    /// competitor kept at the rollback point: a payload of a branch not selected, met after the
    /// selected one (as a restarted member that never applied the loser meets it). It is marked
    /// as it would be had it been read before the switch: `superseded`, never shown, and (read
    /// with a copy of the competitor's state) an invalidated message unless the same rumor is shown
    /// already, so the effect of its identity is the same whichever came first. Not `failed`: the
    /// caller still answers it undecryptable, to be handed back, since the group may yet build on
    /// that branch; followed (`followRivalBranch`), the event opens, is read, and loses the mark.
    /// An event of the kept competitor's branch that is a commit is `followRivalBranch`'s business.
    func supersedeRivalBranchPayload(_ event: Event, record: inout GroupRecord) -> Bool {
        guard EngineRecovery.invalidatesSupersededPayloads, let rival = record.rollback?.rival,
            record.mls.epoch == rival.mls.epoch,
            let plain = try? GroupEventCipher.open(event.content, key: GroupEventKey.of(rival.mls)),
            let message = try? MLSMessage(tlsBytes: plain), !message.isFramedCommit, message.framedEpoch == rival.mls.epoch
        else { return false }
        GroupRecord.remember(event.id, in: &record.superseded, cap: retainedEventIDs)
        // The copy is read and dropped: the kept state stays as the competitor left it, so that
        // following its branch later still reads every message of it.
        var reader = rival.mls
        if case .applicationMessage(let received) = application(message, in: &reader, event: event, group: record.id),
            !record.messages.contains(where: { $0.rumor.id == received.rumor.id }),
            !record.invalidated.contains(where: { $0.rumor.id == received.rumor.id })
        {
            record.invalidated.append(received)
        }
        return true
    }

    package func invalidatedMessages(in group: MLSGroupID) async throws(EngineError) -> [EngineInterface.ReceivedMessage] {
        try record(group).invalidated
    }

    package func resendInvalidatedMessage(_ rumorID: EventID, in group: MLSGroupID) async throws(EngineError) -> Event {
        try persisting { () throws(EngineError) in
            var record = try activeRecord(group)
            guard let index = record.invalidated.firstIndex(where: { $0.rumor.id == rumorID }),
                record.invalidated[index].sender == record.identity
            else { throw EngineError(.invalidInput, "no invalidated message of ours with rumor id \(rumorID.hex.prefix(16))") }
            let original = record.invalidated[index]
            // The same rumor, bytes for bytes: its id, the message's identity, does not change.
            let message = try mlsStep { () throws(MLSError) in
                try record.mls.protect(application: ApplicationRumor.encode(original.rumor), using: &random)
            }
            let event = try seal(message, in: record)
            let stored = EngineInterface.ReceivedMessage(
                mlsGroupID: group, rumor: original.rumor, wrapperID: event.id, sender: original.sender)
            record.ownEvents[event.id] = .message(stored)
            record.messages.append(stored)
            record.rollback?.branchMessages.append(original.rumor.id)
            record.invalidated.remove(at: index)
            groups[group] = record
            return event
        }
    }
}
