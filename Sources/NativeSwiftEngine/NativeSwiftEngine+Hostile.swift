import EngineInterface
import MLS
import Marmot
import Nostr

// The hostile member (issue 14; docs/hostile-members.md): our engine, asked through
// `HostileEngine`, builds the attacks with the MLS library's unchecked builders
// (MLS/Group/Group+Unchecked.swift). Each is valid up to the one rule it breaks. Forged events are
// remembered as ours, so their echo is not processed; the group state moves only for the
// backdated commit, which honest members following MDK 0.8.0's race rule adopt too.
extension NativeSwiftEngine: HostileEngine {
    package func forge(_ request: ForgeRequest) async throws(EngineError) -> ForgedTraffic {
        try persisting { () throws(EngineError) in
            guard
                let id = groups.keys.sorted(by: { $0.hex < $1.hex }).first(where: {
                    groups[$0]?.data.nostrGroupIDHex == request.nostrGroupID
                }),
                var record = groups[id]
            else { throw EngineError(.unknownGroup, "no group with h \(request.nostrGroupID)") }
            let now = clock()
            var events: [Event] = []
            var rumors: [UnsignedEvent] = []
            switch request.attack {
            case .proposeAdd:
                events = [try forged(.proposal(.add(try targetKeyPackage(request))), in: &record)]
            case .proposeAddAsAdmin:
                // Current profile: the impostor cannot sign the target's 0x8009 proof; it signs its own.
                let impostor =
                    record.profile == .current
                    ? try forgedCurrentKeyPackage(
                        identity: try target(request), account: try accountKey(request.sender), flaw: .otherAccount)
                    : try newKeyPackage(for: try target(request))
                events = [try forged(.proposal(.add(impostor.keyPackage)), in: &record)]
            case .proposeRemove:
                events = [try forged(.proposal(.remove(leaf: try leaf(of: request, in: record))), in: &record)]
            case .proposeAdmin:
                events = [try forged(.proposal(try selfPromotion(record, as: request.sender)), in: &record)]
            case .commitAdd:
                events = [try forgedCommit([.add(try targetKeyPackage(request))], in: &record, now: now)]
            case .commitRemove:
                events = [try forgedCommit([.remove(leaf: try leaf(of: request, in: record))], in: &record, now: now)]
            case .commitAdmin:
                events = [try forgedCommit([try selfPromotion(record, as: request.sender)], in: &record, now: now)]
            case .duplicateGroupData:
                var ours = record.data
                ours.admins = [request.sender]
                let extensions = record.mls.context.extensions + [ours.replacing(in: [])[0]]
                events = [try forgedCommit([.groupContextExtensions(extensions)], in: &record, now: now)]
            case .badConfirmationTag:
                events = [try forgedCommit([], flaw: .confirmationTag, in: &record, now: now)]
            case .pathLeafKeyReuse:
                events = [try forgedCommit([], flaw: .pathLeafKeyReuse, in: &record, now: now)]
            case .pathLeafCapabilities:
                events = [try forgedCommit([], flaw: .pathLeafCapabilities, in: &record, now: now)]
            case .pathLeafSignature:
                events = [try forgedCommit([], flaw: .pathLeafSignature, in: &record, now: now)]
            case .commitWithoutPath:
                events = [try forgedCommit([], flaw: .noPath, in: &record, now: now)]
            case .extraPathNode:
                events = [try forgedCommit([], flaw: .extraPathNode, in: &record, now: now)]
            case .badMembershipTag:
                let proposal = Proposal.groupContextExtensions(record.mls.context.extensions)
                events = [try forged(.proposal(proposal), flaw: .membershipTag, as: .publicMessage, in: &record)]
            case .futureEpoch:
                events = [try forgedText("from the next epoch", flaw: .epoch(record.mls.epoch + 1), request, in: &record, now: now)]
            case .pastEpoch:
                guard record.mls.epoch > 0 else { throw EngineError(.invalidInput, "the group has no earlier epoch") }
                events = [try forgedText("from the last epoch", flaw: .epoch(record.mls.epoch - 1), request, in: &record, now: now)]
            case .badPadding:
                events = [try forgedText("padded", flaw: .padding, request, in: &record, now: now)]
            case .wrongVersion:
                events = [try forgedText("version 2", flaw: .version(2), request, in: &record, now: now)]
            case .impersonation:
                let leaf = try leaf(of: request, in: record)
                events = [try forgedText("impersonated", flaw: .sender(leaf), request, author: try target(request), in: &record, now: now)]
            case .removedMemberMessage:
                events = [try forgedText("written after my removal", flaw: nil, request, in: &record, now: now)]
            case .reusedGeneration:
                var twin = record
                events = [
                    try forgedText("first on this generation", flaw: nil, request, in: &twin, now: now),
                    try forgedText("second on this generation", flaw: nil, request, in: &record, now: now),
                ]
                record.ownEvents.merge(twin.ownEvents) { first, _ in first }
            case .backdatedCommit:
                events = [try backdatedCommit(&record, now: now)]
            case .replayedWelcome:
                rumors = [try replayedWelcome(of: id, request, now: now)]
            case .lookalikeGroup:
                rumors =
                    record.profile == .current
                    ? try currentFakeGroupWelcome(request, from: record, lookalike: true, flaw: nil, creatorProof: nil)
                    : try fakeGroupWelcome(request, reusing: record, flaw: nil)
            case .welcomeBadSignature:
                rumors = try fakeGroupWelcome(request, record, flaw: .groupInfoSignature)
            case .welcomeBadTreeHash:
                rumors = try fakeGroupWelcome(request, record, flaw: .treeHash)
            case .welcomeBadParentHash:
                rumors = try fakeGroupWelcome(request, record, flaw: .parentHash)
            case .leafProofMissing:
                events = [try leafProofCommit(.missing, request, in: &record, now: now)]
            case .leafProofForged:
                events = [try leafProofCommit(.tampered, request, in: &record, now: now)]
            case .leafProofOtherAccount:
                events = [try leafProofCommit(.otherAccount, request, in: &record, now: now)]
            case .welcomeLeafProofMissing:
                rumors = try currentFakeGroupWelcome(request, from: record, lookalike: false, flaw: nil, creatorProof: .missing)
            case .addLeafProofMissing:
                events = [try addForgedLeafCommit(.missing, request, in: &record, now: now)]
            case .addLeafProofForged:
                events = [try addForgedLeafCommit(.tampered, request, in: &record, now: now)]
            case .dropAdminPolicy, .dropLifecycle, .dropComponentList, .emptyAdminList, .adminNotMember:
                events = [try stateForgery(request.attack, request, in: &record, now: now)]
            case .commitRemoveBadPath:
                events = [
                    try forgedCommit([.remove(leaf: try leaf(of: request, in: record))], flaw: .pathLeafSignature, in: &record, now: now)
                ]
            case .undecodablePlaintext:
                // Bytes that open under the group key and are no MLSMessage (wire format 0xFFFF).
                let event = try seal(bytes: [0x00, 0x01, 0xFF, 0xFF] + random.bytes(16), in: record)
                record.ownEvents[event.id] = .forgery
                events = [event]
            case .commitReInit:
                let reInit = Proposal.reInit(
                    groupID: random.bytes(16), version: ProtocolVersion.mls10, cipherSuite: record.mls.context.cipherSuite, extensions: [])
                events = [try forgedCommit([reInit], in: &record, now: now)]
            case .replayedCommit, .replayedCommitLater, .retargetGroupID, .resentWelcome, .oversizedTree:
                (events, rumors) = try roundTwoAttack(request, in: &record, now: now)
            case .unsolicitedWelcome, .welcomeWithoutKeyPackageTag, .welcomeWrongKeyPackageTag, .welcomeForOtherKeyPackage:
                rumors = try keyPackageWelcome(request, from: record)
            case .rollbackEpochProposal, .proposalFlood:
                events = try retentionAttack(request, in: &record, now: now)
            case .innerAuthor:
                events = [
                    try forgedText("posted in another's name", flaw: nil, request, author: try target(request), in: &record, now: now)
                ]
            }
            groups[id] = record
            return ForgedTraffic(events: events, welcomeRumors: rumors)
        }
    }

    // MARK: - Builders

    /// Signs and frames `content` under the current epoch, and remembers the event as a forgery.
    func forged(
        _ content: Content, flaw: MessageFlaw? = nil, as wireFormat: HandshakeWireFormat = .privateMessage,
        in record: inout GroupRecord
    ) throws(EngineError) -> Event {
        let message = try mlsStep { () throws(MLSError) in
            try record.mls.uncheckedMessage(content, flaw: flaw, as: wireFormat, using: &random)
        }
        let event = try seal(message, in: record)
        record.ownEvents[event.id] = .forgery
        return event
    }

    /// An application message (a chat rumor by `author`, default us), broken as `flaw` says.
    func forgedText(
        _ text: String, flaw: MessageFlaw?, _ request: ForgeRequest, author: PublicKey? = nil, in record: inout GroupRecord,
        now: UInt64
    ) throws(EngineError) -> Event {
        let rumor = UnsignedEvent(pubkey: author ?? request.sender, createdAt: now, kind: .chatMessage, content: text)
        return try forged(.application(ApplicationRumor.encode(rumor)), flaw: flaw, in: &record)
    }

    /// A commit of `proposals` at the current epoch, never merged by us.
    func forgedCommit(
        _ proposals: [Proposal], flaw: CommitFlaw? = nil, in record: inout GroupRecord, now: UInt64
    ) throws(EngineError) -> Event {
        let created = try mlsStep { () throws(MLSError) in
            try record.mls.uncheckedCommit(adding: proposals, flaw: flaw, now: now, using: &random)
        }
        let event = try seal(created.commit, in: record)
        record.ownEvents[event.id] = .forgery
        return event
    }

    /// A self-update for the epoch we left with the last commit, dated one second before that
    /// commit: MIP-03 (as MDK 0.8.0 applies it) prefers it, so we adopt it as every member will.
    func backdatedCommit(_ record: inout GroupRecord, now: UInt64) throws(EngineError) -> Event {
        guard let rollback = record.rollback, rollback.createdAt > 0 else {
            throw EngineError(.invalidInput, "no commit to undo since we joined")
        }
        var earlier = record
        earlier.restore(rollback)
        let created = try mlsStep { () throws(MLSError) in
            try earlier.mls.uncheckedCommit(adding: [], flaw: nil, now: now, using: &random)
        }
        let event = try seal(created.commit, in: earlier, createdAt: rollback.createdAt - 1)
        try marmotStep { () throws(MarmotError) in try earlier.advance(to: created.next) }
        earlier.ownEvents[event.id] = .commit
        record = earlier
        return event
    }

    /// The welcome rumor we joined `group` with, sent again as ours to the target.
    func replayedWelcome(of group: MLSGroupID, _ request: ForgeRequest, now: UInt64) throws(EngineError) -> UnsignedEvent {
        guard var rumor = joinedWelcomes[group] else { throw EngineError(.invalidInput, "we did not join this group by a welcome") }
        rumor.pubkey = request.sender
        rumor.createdAt = now
        if let keyPackage = request.targetKeyPackage {
            rumor.tags = rumor.tags.filter { $0.first != "e" } + [["e", keyPackage.id.hex]]
        }
        return rumor
    }

    /// A Welcome for the target into a fresh group of ours, broken as `flaw` says, framed for
    /// `record`'s profile.
    func fakeGroupWelcome(_ request: ForgeRequest, _ record: GroupRecord, flaw: CommitFlaw) throws(EngineError) -> [UnsignedEvent] {
        guard record.profile == .current else { return try fakeGroupWelcome(request, reusing: nil, flaw: flaw) }
        return try currentFakeGroupWelcome(request, from: record, lookalike: false, flaw: flaw, creatorProof: nil)
    }

    /// A Welcome for the target into a fresh group of ours (admin: us), reusing `lookalike`'s `h`,
    /// name and relays when given, broken as `flaw` says.
    func fakeGroupWelcome(_ request: ForgeRequest, reusing lookalike: GroupRecord?, flaw: CommitFlaw?) throws(EngineError)
        -> [UnsignedEvent]
    {
        guard let event = request.targetKeyPackage else { throw EngineError(.invalidInput, "the attack needs the target's key package") }
        let invitee = try validated(event)
        let creator = try newKeyPackage(for: request.sender)
        let data = GroupData(
            nostrGroupID: lookalike?.data.nostrGroupID ?? random.bytes(32), name: lookalike?.data.name ?? "Look-alike",
            description: "", admins: [request.sender], relays: lookalike?.data.relays ?? (groups.values.first?.data.relays ?? []))
        let extensions = try marmotStep { () throws(MarmotError) in
            try MarmotCapabilities.groupContextExtensions(data: data, invitees: [invitee.keyPackage])
        }
        let now = clock()
        let created = try mlsStep { () throws(MLSError) in
            var group = try Group(creating: random.bytes(16), creator: creator, extensions: extensions, using: &random)
            return try group.uncheckedCommit(adding: [.add(invitee.keyPackage)], flaw: flaw, now: now, using: &random)
        }
        return try welcomeRumors(created.welcome, for: [invitee], from: request.sender, relays: data.relays)
    }

    // MARK: - Reading the request

    func target(_ request: ForgeRequest) throws(EngineError) -> PublicKey {
        guard let target = request.target else { throw EngineError(.invalidInput, "the attack \(request.attack.rawValue) needs a target") }
        return target
    }

    func leaf(of request: ForgeRequest, in record: GroupRecord) throws(EngineError) -> UInt32 {
        let key = try target(request)
        guard let leaf = record.leaf(of: key) else { throw EngineError(.invalidInput, "\(key.hex) is not a member") }
        return leaf
    }

    func targetKeyPackage(_ request: ForgeRequest) throws(EngineError) -> KeyPackage {
        guard let event = request.targetKeyPackage else { throw EngineError(.invalidInput, "the attack needs the target's key package") }
        return try inviteeKeyPackage(event)
    }

    /// A proposal that adds `me` to the admins: legacy, a GroupContextExtensions of the 0xF2EE
    /// group data; current, an app_data_update of the admin policy (0x8003).
    func selfPromotion(_ record: GroupRecord, as me: PublicKey) throws(EngineError) -> Proposal {
        var data = record.data
        data.admins.append(me)
        guard record.profile == .current else { return .groupContextExtensions(data.replacing(in: record.mls.context.extensions)) }
        let admins = data.admins.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
        let list = try marmotStep { () throws(MarmotError) in try AdminList(admins: admins) }
        return Self.update(.adminPolicy, list.encoded())
    }
}
