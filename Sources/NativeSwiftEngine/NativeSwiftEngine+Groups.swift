import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

extension NativeSwiftEngine {
    package func createGroup(_ request: GroupCreation) async throws(EngineError) -> CreatedGroup {
        try persisting { () throws(EngineError) in
            guard !request.relays.isEmpty, request.relays.allSatisfy(RelayURL.isValid) else {
                throw EngineError(.invalidInput, "a group needs at least one ws(s):// relay")
            }
            guard !request.admins.isEmpty else { throw EngineError(.lastAdmin, "a group needs at least one admin") }
            if profile == .current { return try currentCreateGroup(request) }
            var invitees: [KeyPackageEvent.Validated] = []
            for event in request.keyPackages { invitees.append(try validated(event)) }
            let creator = try newKeyPackage(for: request.creator)
            let groupID = random.bytes(16)
            let data = GroupData(
                nostrGroupID: random.bytes(32), name: request.name, description: request.description, admins: request.admins,
                relays: request.relays)
            let extensions = try marmotStep { () throws(MarmotError) in
                try MarmotCapabilities.groupContextExtensions(data: data, invitees: invitees.map(\.keyPackage))
            }
            var group = try mlsStep { () throws(MLSError) in
                try Group(creating: groupID, creator: creator, extensions: extensions, using: &random)
            }
            var record = GroupRecord(mls: group, data: data, state: .active)
            var rumors: [UnsignedEvent] = []
            if !invitees.isEmpty {
                // The initial Add commit is merged locally and never published; only the welcomes go out.
                let now = clock()
                let created = try mlsStep { () throws(MLSError) in
                    try group.commit(
                        adding: invitees.map { .add($0.keyPackage) }, as: .privateMessage, now: now, using: &random)
                }
                try marmotStep { () throws(MarmotError) in try record.advance(to: created.next) }
                record.pastEpochs = [:]
                rumors = try welcomeRumors(created.welcome, for: invitees, from: request.creator, relays: data.relays)
                rememberSent(rumors, to: invitees.map(\.event.pubkey), in: record.id)
            }
            groups[record.id] = record
            return CreatedGroup(group: record.snapshot, welcomeRumors: rumors)
        }
    }

    package func addMembers(to group: MLSGroupID, keyPackages: [Event]) async throws(EngineError) -> GroupEvolution {
        try persisting { () throws(EngineError) in
            let record = try activeRecord(group)
            let me = try requireAdmin(record)
            guard !keyPackages.isEmpty else { throw EngineError(.invalidInput, "no key packages to add") }
            if profile == .current {
                var invitees: [CurrentKeyPackageEvent.Validated] = []
                for event in keyPackages { invitees.append(try currentValidated(event)) }
                return try stageCommit(
                    in: group, adding: invitees.map { .add($0.keyPackage) }, currentInvitees: invitees.map(\.event), as: me)
            }
            var invitees: [KeyPackageEvent.Validated] = []
            for event in keyPackages { invitees.append(try validated(event)) }
            return try stageCommit(in: group, adding: invitees.map { .add($0.keyPackage) }, welcoming: invitees, as: me)
        }
    }

    package func removeMembers(from group: MLSGroupID, pubkeys: [PublicKey]) async throws(EngineError) -> GroupEvolution {
        try persisting { () throws(EngineError) in
            let record = try activeRecord(group)
            let me = try requireAdmin(record)
            guard !pubkeys.contains(me) else { throw EngineError(.cannotRemoveSelf, "use leave_group to leave") }
            var proposals: [Proposal] = []
            for key in Set(pubkeys).sorted() {
                guard let leaf = record.leaf(of: key) else { throw EngineError(.invalidInput, "\(key.hex) is not a member") }
                proposals.append(.remove(leaf: leaf))
            }
            // Removed admins lose their rights in the same commit (MDK strips them with a GroupContextExtensions).
            var data = record.data
            data.admins = data.admins.filter { !pubkeys.contains($0) }
            if data.admins != record.data.admins {
                switch profile {
                case .legacy: proposals.append(.groupContextExtensions(data.replacing(in: record.mls.context.extensions)))
                case .current: proposals += try currentUpdates(from: record.data, to: data)
                }
            }
            return try stageCommit(in: group, adding: proposals, as: me)
        }
    }

    package func leaveGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try persisting { () throws(EngineError) in
            var record = try activeRecord(group)
            guard let me = record.identity, !record.data.admins.contains(me) else {
                throw EngineError(.adminCannotLeave, "admins must self_demote before leaving")
            }
            // SelfRemove travels as a PublicMessage (MLS extensions draft); the legacy Remove of our own
            // leaf, used when the group does not require SelfRemove, as a PrivateMessage.
            // The current profile always leaves by SelfRemove (every leaf of ours supports it).
            let selfRemove = profile == .current || MarmotCapabilities.requiresSelfRemove(record.mls.context.extensions)
            let message = try mlsStep { () throws(MLSError) in
                try record.mls.propose(
                    selfRemove ? .selfRemove : .remove(leaf: record.mls.leafIndex),
                    as: selfRemove ? .publicMessage : .privateMessage, using: &random)
            }
            let event = try seal(message, in: record)
            record.ownEvents[event.id] = .proposal
            groups[group] = record
            return GroupEvolution(mlsGroupID: group, event: event, welcomeRumors: [])
        }
    }

    package func selfDemote(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try persisting { () throws(EngineError) in
            let record = try activeRecord(group)
            let me = try requireAdmin(record)
            return try updateGroupData(record, GroupDataChanges(admins: record.data.admins.filter { $0 != me }), as: me)
        }
    }

    package func selfUpdate(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try persisting { () throws(EngineError) in
            let record = try activeRecord(group)
            guard let me = record.identity else { throw EngineError(.engineError, "our leaf has no Nostr identity") }
            return try stageCommit(in: group, adding: [], as: me)
        }
    }

    package func updateGroupData(of group: MLSGroupID, _ changes: GroupDataChanges) async throws(EngineError)
        -> GroupEvolution
    {
        try persisting { () throws(EngineError) in
            let record = try activeRecord(group)
            return try updateGroupData(record, changes, as: try requireAdmin(record))
        }
    }

    func updateGroupData(_ record: GroupRecord, _ changes: GroupDataChanges, as me: PublicKey) throws(EngineError)
        -> GroupEvolution
    {
        var data = record.data
        if let name = changes.name { data.name = name }
        if let description = changes.description { data.description = description }
        if let relays = changes.relays {
            guard !relays.isEmpty, relays.allSatisfy(RelayURL.isValid) else {
                throw EngineError(.invalidInput, "relays must be ws(s):// URLs")
            }
            data.relays = relays
        }
        if let admins = changes.admins { data.admins = admins }
        if let nostrGroupID = changes.nostrGroupID {
            // Only the current profile's routing component can move the group's address; MDK
            // 0.8.0's update cannot, so the legacy profile refuses rather than fork the two engines.
            guard profile == .current else {
                throw EngineError(.invalidInput, "a nostr_group_id rotation is the current profile's (0x8004)")
            }
            guard nostrGroupID.count == 32, !record.answers(nostrGroupID) else {
                throw EngineError(.invalidInput, "a new nostr_group_id is 32 bytes the group has never used")
            }
            data.nostrGroupID = nostrGroupID
        }
        // As MDK 0.8.0: hash, key and nonce are replaced; `image_upload_key` is left as it was (MDK's
        // update has no way to set it either, so both engines write the same group data).
        if let image = changes.image, profile == .current {
            // 0x8002 carries the upload key and media type beside hash, key and nonce: both are
            // known only to the engine that prepared the image.
            guard let prepared = preparedImages[image.hash], prepared.key == image.key, prepared.nonce == image.nonce else {
                throw EngineError(
                    .invalidInput, "the image \(image.hashHex) was not prepared by this engine (0x8002 needs its upload key and media type)"
                )
            }
            data.imageHash = prepared.hash
            data.imageKey = prepared.key
            data.imageNonce = prepared.nonce
            data.imageUploadKey = prepared.uploadKey
            data.imageMediaType = prepared.mediaType
        } else if let image = changes.image {
            data.imageHash = image.hash
            data.imageKey = image.key
            data.imageNonce = image.nonce
        }
        try marmotStep { () throws(MarmotError) in try AdminPolicy.requireAdmin(admins: data.admins, members: record.members) }
        if profile == .current {
            return try stageCommit(in: record.id, adding: try currentUpdates(from: record.data, to: data), as: me)
        }
        return try stageCommit(
            in: record.id, adding: [.groupContextExtensions(data.replacing(in: record.mls.context.extensions))], as: me)
    }

    /// Unlike MDK 0.8.0's `merge_pending_commit`, keeps the state before the commit, so that a
    /// competing commit that precedes ours in MIP-03 order still replaces it (MIP-03 "Commit
    /// Message Race Conditions": every client applies exactly the winner, committers included).
    package func mergePendingCommit(in group: MLSGroupID) async throws(EngineError) {
        try persisting { () throws(EngineError) in
            var record = try record(group)
            try marmotStep { () throws(MarmotError) in try record.mergePending() }
            groups[group] = record
        }
    }

    package func clearPendingCommit(in group: MLSGroupID) async throws(EngineError) {
        try persisting { () throws(EngineError) in
            var record = try record(group)
            record.pending = nil
            groups[group] = record
        }
    }

    // MARK: - Shared steps

    /// Builds a commit of `proposals` (plus any received ones pending) with a path, encrypted under the
    /// pre-commit epoch's key, and keeps the next epoch staged until `mergePendingCommit`.
    func stageCommit(
        in group: MLSGroupID, adding proposals: [Proposal], welcoming invitees: [KeyPackageEvent.Validated] = [],
        currentInvitees: [Event] = [], as me: PublicKey
    ) throws(EngineError) -> GroupEvolution {
        var record = try activeRecord(group)
        let now = clock()
        let judge = Self.judge(profile)
        let including = ownCommitFilter(record, as: me)
        let created = try mlsStep { () throws(MLSError) in
            try record.mls.commit(
                adding: proposals, as: .privateMessage, now: now, judge: judge, including: including, using: &random)
        }
        let profile = profile
        let nextData = try marmotStep { () throws(MarmotError) in try Self.groupData(created.next.context.extensions, profile) }
        let event = try seal(created.commit, in: record)
        let rumors =
            profile == .current
            ? try currentWelcomeRumors(created.welcome, for: currentInvitees.map(\.id), from: me, relays: nextData.relays)
            : try welcomeRumors(created.welcome, for: invitees, from: me, relays: nextData.relays)
        rememberSent(rumors, to: profile == .current ? currentInvitees.map(\.pubkey) : invitees.map(\.event.pubkey), in: group)
        record.pending = created.next
        record.pendingEvent = (event.id, event.createdAt)
        record.ownEvents[event.id] = .commit
        groups[group] = record
        return GroupEvolution(mlsGroupID: group, event: event, welcomeRumors: rumors)
    }

    /// Which pending proposals a commit of ours carries (issue 30, N4): in the legacy profile, only
    /// those MIP-03's admin policy lets us commit as receivers apply it (AdminPolicy), one by one
    /// (each rule is about one proposal and its proposer, so what passes alone passes together). A
    /// non-admin's Remove of itself, stored by a non-admin, stays pending for an admin to commit
    /// instead of making our self-update refused by everyone.
    ///
    /// In the current profile every stored proposal was judged when it arrived (a non-admin's
    /// Add, Remove or app_data_update is never stored), and a commit is anybody's only while it is
    /// ordinary (a path and SelfRemoves): a non-admin carries only the stored SelfRemoves, so that
    /// an admin's pending Remove does not make its self-update one that everyone refuses.
    func ownCommitFilter(_ record: GroupRecord, as me: PublicKey) -> (Proposal, Sender) -> Bool {
        guard MarmotReceiverCheck.ownCommitPolicy.isOn else { return { _, _ in true } }
        if profile == .current {
            guard !record.data.admins.contains(me) else { return { _, _ in true } }
            return { proposal, _ in if case .selfRemove = proposal { true } else { false } }
        }
        let (tree, ownLeaf, admins) = (record.mls.tree, record.mls.leafIndex, record.data.admins)
        return { proposal, sender in
            var proposers: [UInt32: PublicKey] = [:]
            if case .member(let leaf) = sender, let identity = tree.leaf(leaf).flatMap({ ApplicationRumor.identity(of: $0.credential) }) {
                proposers[leaf] = identity
            }
            let summary = CommitSummary(
                committer: ownLeaf, committerIdentity: me, proposals: [(proposal, sender)], pathCredential: nil,
                proposerIdentities: proposers)
            do { try AdminPolicy.authorize(summary, admins: admins) } catch { return false }
            return true
        }
    }

    /// Keeps the welcome rumors we sent, by invitee account (the hostile member resends them).
    func rememberSent(_ rumors: [UnsignedEvent], to invitees: [PublicKey], in group: MLSGroupID) {
        for (invitee, rumor) in zip(invitees, rumors) { sentWelcomes[group, default: [:]][invitee] = rumor }
    }

    /// One kind-444 rumor per invitee, all carrying the same Welcome (as MDK does).
    func welcomeRumors(
        _ welcome: Welcome?, for invitees: [KeyPackageEvent.Validated], from committer: PublicKey, relays: [String]
    ) throws(EngineError) -> [UnsignedEvent] {
        guard let welcome, !invitees.isEmpty else { return [] }
        let now = clock()
        var rumors: [UnsignedEvent] = []
        for invitee in invitees {
            rumors.append(
                try marmotStep { () throws(MarmotError) in
                    try WelcomeRumor.make(
                        welcome: welcome, committer: committer, createdAt: now, relays: relays,
                        keyPackageEvent: invitee.event.id, client: Self.clientTag)
                })
        }
        return rumors
    }

    /// Wraps an MLS message in a kind-445 event under `record`'s current epoch key, dated now
    /// unless `createdAt` says otherwise (the hostile member's backdated commit).
    func seal(_ message: MLSMessage, in record: GroupRecord, createdAt: UInt64? = nil) throws(EngineError) -> Event {
        try seal(bytes: try marmotStep { () throws(MarmotError) in try tlsEncoded(message) }, in: record, createdAt: createdAt)
    }
}
