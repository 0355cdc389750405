import EngineInterface
import MLS
import Marmot
import Nostr

// The hostile member's attacks of the second receiver review (issue 30; docs/hostile-members.md):
// a republished commit (N1), a group moved onto another group's `h` (N2), a resent Welcome (N3)
// and a Welcome whose ratchet tree is wider than a reader should decode (N5). As the others, each
// is valid up to the one rule it breaks, and our own group state does not move.
extension NativeSwiftEngine {
    /// Builds one of the round-two attacks in `record`'s group: events to publish, welcome rumors
    /// to gift-wrap to the target.
    func roundTwoAttack(_ request: ForgeRequest, in record: inout GroupRecord, now: UInt64) throws(EngineError) -> (
        [Event], [UnsignedEvent]
    ) {
        switch request.attack {
        case .replayedCommit: return ([try republishedCommit(of: record, shift: -1)], [])
        case .replayedCommitLater: return ([try republishedCommit(of: record, shift: 1)], [])
        case .retargetGroupID: return ([try retargetedGroupID(&record, now: now)], [])
        case .resentWelcome: return ([], [try resentWelcome(of: record, request)])
        case .oversizedTree:
            // Framed for the group's profile: a current member is sent a current Welcome for its
            // current key package, so that only the width cap can refuse it.
            return ([], try fakeGroupWelcome(request, record, flaw: .oversizedTree(slots: RatchetTreeNodes.maxNodes + 2, hashed: true)))
        default: throw EngineError(.invalidInput, "attack \(request.attack.rawValue) is not one of round two")
        }
    }

    /// The last commit we applied from a peer in this group, its content and tags republished by
    /// a fresh one-time key, dated `shift` seconds from the original: what anyone reading the relay
    /// can do.
    func republishedCommit(of record: GroupRecord, shift: Int64) throws(EngineError) -> Event {
        guard let original = observedCommits[record.id] else {
            throw EngineError(.invalidInput, "no commit from a peer seen in this group since we started")
        }
        let createdAt = shift < 0 ? original.createdAt - UInt64(-shift) : original.createdAt + UInt64(shift)
        let oneTime = Keypair.generate(using: &random)
        do {
            return try UnsignedEvent(
                pubkey: oneTime.publicKey, createdAt: createdAt, kind: original.kind, tags: original.tags, content: original.content
            ).signed(with: oneTime, using: &random)
        } catch {
            throw EngineError(.engineError, "signing the republished commit failed: \(error)")
        }
    }

    /// Our commit (as an admin) of the group data with nostr_group_id set to the `h` of another
    /// group we hold: the first other group by MLS group id, active ones first. Not merged by us.
    /// Legacy: a GroupContextExtensions of the 0xF2EE data; current: an app_data_update of the
    /// routing component (0x8004), the relays unchanged.
    func retargetedGroupID(_ record: inout GroupRecord, now: UInt64) throws(EngineError) -> Event {
        let rank = { (group: GroupRecord) in (group.state == .active ? 0 : 1, group.id.hex) }
        let others = groups.values.filter { $0.id != record.id }.sorted { rank($0) < rank($1) }
        guard let other = others.first else { throw EngineError(.invalidInput, "we hold no other group to point this one at") }
        var data = record.data
        data.nostrGroupID = other.data.nostrGroupID
        guard record.profile == .current else {
            return try forgedCommit([.groupContextExtensions(data.replacing(in: record.mls.context.extensions))], in: &record, now: now)
        }
        return try forgedCommit(try currentUpdates(from: record.data, to: data), in: &record, now: now)
    }

    /// The welcome rumor we sent the target when we added it to this group, unchanged.
    func resentWelcome(of record: GroupRecord, _ request: ForgeRequest) throws(EngineError) -> UnsignedEvent {
        let target = try target(request)
        guard let rumor = sentWelcomes[record.id]?[target] else {
            throw EngineError(.invalidInput, "we sent \(target.hex) no welcome into this group since we started")
        }
        return rumor
    }
}
