import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

/// One member's stored state of a group.
struct GroupRecord: Sendable {
    /// The group at its current (merged) epoch.
    var mls: Group
    var data: GroupData
    var state: GroupSnapshot.State
    /// The profile the group is of (the engine's): how its group data is read from the
    /// GroupContext. Not in the state file: a restarted engine is given its profile again.
    var profile: MarmotProfile = .legacy
    /// Current profile: the nostr_group_ids the group used before a routing rotation (0x8004),
    /// which still route to it (a member that has not rotated yet publishes there). Not in the
    /// state file.
    var previousNostrGroupIDs: [[UInt8]] = []
    /// Our own commit, built but not yet merged.
    var pending: Group? { didSet { if pending == nil { pendingEvent = nil } } }
    /// The kind-445 event that carries `pending`: its id and created_at place it in MIP-03 order.
    var pendingEvent: (id: EventID, createdAt: UInt64)?
    /// Earlier epochs (at most `lookback`), for late application messages and outer-layer keys.
    var pastEpochs: [UInt64: Group] = [:]
    /// When each earlier epoch ended: the created_at of the commit that ended it.
    var epochEnds: [UInt64: UInt64] = [:]
    /// The state before the last received commit, to roll back to when a better competing commit arrives.
    var rollback: RollbackPoint?
    var messages: [ReceivedMessage] = []
    /// Wrapper ids already handled, and what our own events are.
    var processed: Set<EventID> = []
    var failed: Set<EventID> = []
    /// Commits of a branch MIP-03 did not select (restart-matrix boundary 7): the one we had
    /// applied when a better competitor replaced it, or a competitor met after the one we applied
    /// that ranks after it. A label over `processed` and `failed`, which keep answering as before:
    /// the snapshot reports these inputs `superseded` (NativeSwiftEngine+Snapshot.swift).
    var superseded: Set<EventID> = []
    /// Messages delivered on a branch MIP-03 then did not select (restart-matrix boundary 7,
    /// "supersedes previously delivered payloads"): no longer in `messages`, so no longer shown,
    /// until the same rumor (its id is the message's identity) arrives again in the winning
    /// branch. In the order they were invalidated.
    var invalidated: [EngineInterface.ReceivedMessage] = []
    var ownEvents: [EventID: OwnEvent] = [:]

    /// MDK's DEFAULT_EPOCH_LOOKBACK.
    static let lookback: UInt64 = 5
    /// How many wrapper ids `processed` and `failed` each keep (issue 30, N10): beyond it the
    /// smallest ids go first (a deterministic choice). Forgetting one is safe: an event handed back
    /// after its id was pruned meets the MLS state again, which refuses a consumed generation or a
    /// past epoch's commit by itself; only the short-cut answer (`duplicate`, `previouslyFailed`)
    /// is lost.
    static let retainedEventIDs = 4096

    /// Remembers `id` in `set`, pruned to `cap` (the engine's `retainedEventIDs`, at most this type's).
    static func remember(_ id: EventID, in set: inout Set<EventID>, cap: Int = retainedEventIDs) {
        set.insert(id)
        // One insert at a time: at most one id over the cap, found in one pass.
        while MarmotReceiverCheck.eventIDRetention.isOn, set.count > cap, let old = set.min() { set.remove(old) }
    }

    var id: MLSGroupID { MLSGroupID(hex: mls.groupID.hexString) }

    /// Our own Nostr identity (the credential of our leaf).
    var identity: PublicKey? {
        mls.tree.leaf(mls.leafIndex).flatMap { ApplicationRumor.identity(of: $0.credential) }
    }

    /// Members' identities, sorted ascending.
    var members: [PublicKey] { Self.members(of: mls) }

    static func members(of group: Group) -> [PublicKey] {
        group.tree.occupiedLeaves.compactMap { group.tree.leaf($0).flatMap { ApplicationRumor.identity(of: $0.credential) } }
            .sorted()
    }

    /// The leaf of the member whose identity is `key`.
    func leaf(of key: PublicKey) -> UInt32? {
        mls.tree.occupiedLeaves.first { mls.tree.leaf($0)?.credential == .basic(identity: key.bytes) }
    }

    var snapshot: GroupSnapshot {
        GroupSnapshot(
            mlsGroupID: id, nostrGroupID: data.nostrGroupIDHex, name: data.name, description: data.description,
            admins: data.admins, epoch: mls.epoch, state: state,
            image: GroupImage(hash: data.imageHash ?? [], key: data.imageKey ?? [], nonce: data.imageNonce ?? []))
    }

    /// The group states whose outer-layer keys may open an incoming event, newest first.
    var decryptionCandidates: [Group] {
        [mls] + pastEpochs.keys.sorted(by: >).compactMap { pastEpochs[$0] }
    }

    /// Moves to `next`, keeping the old epoch for late messages and pruning beyond the lookback.
    /// - Parameter endedAt: the created_at of the commit that ends the current epoch, if known.
    mutating func advance(to next: Group, endedAt: UInt64? = nil) throws(MarmotError) {
        let newData = try NativeSwiftEngine.groupData(next.context.extensions, profile)
        pastEpochs[mls.epoch] = mls
        epochEnds[mls.epoch] = endedAt
        // Epochs come from peers' Welcomes and may be near UInt64.max: compare without adding.
        for epoch in pastEpochs.keys where next.epoch > Self.lookback && epoch < next.epoch - Self.lookback {
            pastEpochs[epoch] = nil
            epochEnds[epoch] = nil
        }
        mls = next
        if profile == .current, newData.nostrGroupID != data.nostrGroupID, !previousNostrGroupIDs.contains(data.nostrGroupID) {
            previousNostrGroupIDs.append(data.nostrGroupID)
        }
        data = newData
        pending = nil
        // group-lifecycle-v1.md: a disbanded group is terminal; the committer's final leaf is a
        // mechanical MLS requirement, not a participant, so it stops like every removed member.
        if profile == .current, (try? GroupComponents(extensions: next.context.extensions))?.lifecycle == .disbanded {
            state = .disbanded
        }
    }

    /// Whether kind-445 events addressed to `nostrGroupID` are this group's.
    func answers(_ nostrGroupID: [UInt8]) -> Bool {
        data.nostrGroupID == nostrGroupID || previousNostrGroupIDs.contains(nostrGroupID)
    }

    /// Goes back to the state `point` kept, dropping any pending commit and the rollback point.
    mutating func restore(_ point: RollbackPoint) {
        mls = point.mls
        data = point.data
        pastEpochs = point.pastEpochs
        state = point.state
        pending = nil
        rollback = nil
    }

    /// Merges our pending commit, keeping the state before it as the rollback point (placed in
    /// MIP-03 order by its event), as for a received commit: a better competing commit still wins.
    mutating func mergePending() throws(MarmotError) {
        guard let next = pending else { return }
        let before = pendingEvent.map {
            RollbackPoint(before: self, createdAt: $0.createdAt, eventID: $0.id, committer: identity?.bytes)
        }
        try advance(to: next, endedAt: pendingEvent?.createdAt)
        rollback = before
    }
}

/// The state to restore when MIP-03 prefers a competing commit over the one applied.
struct RollbackPoint: Sendable {
    var mls: Group
    var data: GroupData
    var pastEpochs: [UInt64: Group]
    var state: GroupSnapshot.State
    var createdAt: UInt64
    var eventID: EventID
    /// The competing commit of this epoch that MIP-03 ranked after `eventID`, applied to this
    /// state but not adopted: if the group builds on it, we follow (NativeSwiftEngine+RivalBranch.swift).
    var rival: RivalBranch?
    /// Current profile: the account that made the commit applied on top of this state, and
    /// whether a message of the epoch it made has been read (a witness: the group built on it).
    /// In the current-profile state file after the groups (EngineStateFile.swift, rollback ordering).
    var committer: [UInt8]?
    var witnessed = false
    /// The rumor ids of the messages read or written in the epoch the commit `eventID` made: the
    /// payloads delivered on its branch, invalidated if a competitor replaces it.
    var branchMessages: [EventID] = []

    /// The state of `record` now, to come back to if the commit `eventID` is beaten.
    init(before record: GroupRecord, createdAt: UInt64, eventID: EventID, committer: [UInt8]? = nil) {
        self.committer = committer
        mls = record.mls
        data = record.data
        pastEpochs = record.pastEpochs
        state = record.state
        self.createdAt = createdAt
        self.eventID = eventID
    }
}

/// What one of our own published events was, so its echo is recognised.
enum OwnEvent: Sendable {
    case message(ReceivedMessage)
    case commit
    case proposal
    /// Something our hostile member forged (NativeSwiftEngine+Hostile.swift): never processed.
    case forgery
}
