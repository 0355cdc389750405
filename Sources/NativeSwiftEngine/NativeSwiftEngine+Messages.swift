import EngineInterface
import ErrorCodes
import MLS
import Marmot
import Nostr
import TLSCodec

// Ingest rejections beyond those EngineInterface names (docs/driver-protocol.md, process_message).
extension EngineError.Code {
    package static let eventTooOld = Self("event_too_old")
    package static let eventInFuture = Self("event_in_future")
    package static let invalidTags = Self("invalid_tags")
    /// A commit moving its group onto the `h` of another group we hold (issue 30, N2).
    package static let groupIDCollision = Self("group_id_collision")
}

extension NativeSwiftEngine {
    package func createMessage(
        in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]], createdAt: UInt64?
    ) async throws(EngineError) -> Event {
        try persisting { () throws(EngineError) in
            var record = try activeRecord(group)
            // The caller's instant (its own messages in the order written), never before now.
            let rumor = UnsignedEvent(pubkey: sender, createdAt: max(createdAt ?? 0, clock()), kind: kind, tags: tags, content: content)
            let message = try mlsStep { () throws(MLSError) in
                try record.mls.protect(application: ApplicationRumor.encode(rumor), using: &random)
            }
            let event = try seal(message, in: record)
            let stored = ReceivedMessage(mlsGroupID: group, rumor: rumor, wrapperID: event.id, sender: sender)
            record.ownEvents[event.id] = .message(stored)
            record.messages.append(stored)
            record.rollback?.branchMessages.append(rumor.id)
            groups[group] = record
            return event
        }
    }

    package func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult {
        try persisting { () throws(EngineError) in
            let now = clock()
            let nostrGroupID: [UInt8]
            do {
                switch profile {
                case .legacy:
                    nostrGroupID = try GroupEventEnvelope.check(event, now: now)
                    if MarmotReceiverCheck.eventSignature.isOn { try event.verify() }
                case .current:
                    // transports/nostr.md: id and signature first, then the tags (exact cardinality).
                    nostrGroupID = try CurrentGroupEvent.check(event).nostrGroupID
                }
            } catch let error as MarmotError {
                return .rejected(Self.ingestError(error))
            } catch {
                return .rejected(EngineError(.invalidInput, "\(error)"))
            }
            guard let id = groups.keys.sorted(by: { $0.hex < $1.hex }).first(where: { groups[$0]?.answers(nostrGroupID) ?? false }),
                var record = groups[id]
            else { return .rejected(EngineError(.unknownGroup, "no group with h \(event.firstTagValue("h") ?? "")")) }

            if let own = record.ownEvents[event.id] {
                switch own {
                case .message where record.superseded.contains(event.id):
                    // Our message of a branch MIP-03 did not select, echoed back: invalidated, not shown again.
                    return .unprocessable(id, reason: Self.supersededPayload)
                case .message(let message): return .applicationMessage(message)
                case .commit where record.pendingEvent?.id == event.id:
                    // Our pending commit, handed back (as MDK 0.8.0 does when it meets its own pending
                    // commit): merge it like a received one, keeping the state before it so that a
                    // better competing commit (MIP-03) can still replace it.
                    return mergeOwn(event, record: &record)
                case .commit: return .commit(id)
                case .proposal: return .unprocessable(id, reason: "own_proposal")
                case .forgery: return .ignoredProposal(id, reason: "own_forgery")
                }
            }
            if profile == .current {
                // transports/nostr.md: the pubkey is a fresh ephemeral key, never a member's account.
                do throws(MarmotError) { try CurrentGroupEvent.requireEphemeral(event, accounts: Set(record.members)) } catch {
                    return .rejected(Self.ingestError(error))
                }
            }
            if record.failed.contains(event.id) { return .previouslyFailed }
            if record.processed.contains(event.id) { return .unprocessable(id, reason: "duplicate") }
            guard record.state == .active else { return .unprocessable(id, reason: "inactive") }

            var message: MLSMessage?
            for candidate in record.decryptionCandidates {
                guard let plain = try? GroupEventCipher.open(event.content, key: GroupEventKey.of(candidate)) else { continue }
                do throws(TLSCodecError) { message = try MLSMessage(tlsBytes: plain) } catch {
                    // It opened under a group key, so it is of this group and nothing later will
                    // read it differently: invalid input, remembered as failed and never handed
                    // back as undecryptable (issue 30, N9).
                    guard MarmotReceiverCheck.plaintextDecodes.isOn else { break }
                    GroupRecord.remember(event.id, in: &record.failed, cap: retainedEventIDs)
                    groups[id] = record
                    return .rejected(EngineError(.invalidInput, "the decrypted content is no MLSMessage: \(error.description)"))
                }
                break
            }
            if let message, message.framedEpoch == nil, MarmotReceiverCheck.plaintextDecodes.isOn {
                // A Welcome, GroupInfo or KeyPackage inside a group event: no framed content to apply.
                GroupRecord.remember(event.id, in: &record.failed, cap: retainedEventIDs)
                groups[id] = record
                return .rejected(EngineError(.invalidInput, "the decrypted content is an MLSMessage with no framed content"))
            }
            guard let message, let epoch = message.framedEpoch else {
                if let result = followRivalBranch(event, record: &record, now: now) {
                    groups[id] = record
                    return result
                }
                // A message of the kept competitor's branch is of a branch not selected while we
                // stay on ours: marked so, and still answered undecryptable below, since the group
                // may yet build on that branch and we follow it (then it opens and is read).
                if supersedeRivalBranchPayload(event, record: &record) { groups[id] = record }
                // Not remembered as failed: an event no key of ours opens may belong to an epoch we
                // have not reached yet (a commit of a later epoch met first while catching up, or
                // overtaking its predecessor), and handed back once we are there it must succeed.
                // Garbage costs a failed decryption per attempt; the caller bounds the attempts.
                return .rejected(EngineError(.undecryptable, "no exporter key of the last \(GroupRecord.lookback + 1) epochs opens it"))
            }

            let result = ingest(message, epoch: epoch, event: event, record: &record, now: now)
            // A competitor of the epoch we applied a commit for, met after it and ranked after it:
            // of a branch not selected (boundary 7), as it would be had it come first and been replaced.
            if case .unprocessable(_, let reason) = result, reason == "wrong_epoch", message.isFramedCommit,
                record.rollback?.mls.epoch == epoch
            {
                GroupRecord.remember(event.id, in: &record.superseded)
            }
            switch result {
            case .unprocessable(_, let reason) where reason == MLSError.Code.unknownProposal.name:
                // Not remembered as failed: the proposal it names may still arrive (delayed or
                // reordered), and the commit must go through then (GroupCore hands it back).
                break
            case .unprocessable, .rejected: GroupRecord.remember(event.id, in: &record.failed, cap: retainedEventIDs)
            default: GroupRecord.remember(event.id, in: &record.processed, cap: retainedEventIDs)
            }
            if case .commit = result { observedCommits[id] = event }
            // The same rumor delivered again (re-sent in the winning branch), or a message of a
            // competitor's branch we have since followed: shown, once, and no longer superseded.
            if case .applicationMessage(let received) = result {
                record.invalidated.removeAll { $0.rumor.id == received.rumor.id }
                record.superseded.remove(event.id)
            }
            groups[id] = record
            return result
        }
    }

    /// Routes a decrypted message to the epoch it belongs to.
    func ingest(_ message: MLSMessage, epoch: UInt64, event: Event, record: inout GroupRecord, now: UInt64)
        -> ProcessingResult
    {
        let id = record.id
        if epoch == record.mls.epoch { return ingestCurrent(message, event: event, record: &record, now: now) }
        if epoch < record.mls.epoch, var past = record.pastEpochs[epoch] {
            if case .privateMessage(let m) = message.body, m.contentType == 1 {
                let result = application(message, in: &past, event: event, group: id)
                record.pastEpochs[epoch] = past
                // A late message of an earlier epoch is read, unless its sender has left the group
                // since and wrote it after that epoch ended: a removed member keeps the old keys.
                if case .applicationMessage(let received) = result, let ended = record.epochEnds[epoch],
                    event.createdAt > ended, !record.members.contains(received.sender), MarmotReceiverCheck.senderRemoved.isOn
                {
                    return .unprocessable(id, reason: "sender_removed")
                }
                if case .applicationMessage(let received) = result { record.messages.append(received) }
                return result
            }
            // A competing commit for the epoch we just left: MIP-03 keeps the earlier one. Only a
            // commit competes (a proposal or message of that epoch is simply late, as in MDK).
            if message.isFramedCommit, let rollback = record.rollback, rollback.mls.epoch == epoch, !rollback.witnessed,
                ranksFirst(
                    (event.createdAt, event.id, committerAccount(of: message, at: rollback.mls)),
                    over: (rollback.createdAt, rollback.eventID, rollback.committer))
            {
                var restored = record
                restored.restore(rollback)
                let result = ingestCurrent(message, event: event, record: &restored, now: now)
                if case .commit = result {
                    // The commit we applied, republished (issue 30, N1): applying it again would
                    // rebuild this epoch's secret tree from generation 0, so that its messages
                    // could be replayed and its keys reused. Only the copy is discarded.
                    if Self.isSameCommit(restored.mls, as: record.mls), MarmotReceiverCheck.replayedCommit.isOn {
                        return .unprocessable(id, reason: Self.duplicateCommit)
                    }
                    keepReplacedAsRival(record, of: rollback, in: &restored)
                    // Boundary 7: the commit we had applied is now of a branch not selected, and
                    // so is every payload delivered on it.
                    GroupRecord.remember(rollback.eventID, in: &restored.superseded)
                    restored.superseded.remove(event.id)
                    invalidatePayloads(of: rollback, in: &restored)
                    switchedBranch = true
                    record = restored
                }
                return result
            }
            keepRivalAtRollbackPoint(message, epoch: epoch, event: event, record: &record, now: now)
            keepProposalAtRollbackPoint(message, epoch: epoch, record: &record, now: now)
        }
        return .unprocessable(id, reason: "wrong_epoch")
    }

    /// Handles a message of the current epoch: application data, a proposal, or a commit.
    func ingestCurrent(_ message: MLSMessage, event: Event, record: inout GroupRecord, now: UInt64) -> ProcessingResult {
        let id = record.id
        let content: AuthenticatedContent
        do { content = try record.mls.inspect(message) } catch { return .unprocessable(id, reason: error.code.name) }
        guard case .member(let senderLeaf) = content.content.sender,
            let senderLeafNode = record.mls.tree.leaf(senderLeaf),
            let sender = ApplicationRumor.identity(of: senderLeafNode.credential)
        else { return .unprocessable(id, reason: "sender_not_member") }

        switch content.content.content {
        case .application:
            let result = application(message, in: &record.mls, event: event, group: id)
            if case .applicationMessage(let received) = result {
                record.messages.append(received)
                record.rollback?.branchMessages.append(received.rumor.id)
                // Current profile: a message of this epoch witnesses the commit that made it.
                if profile == .current { record.rollback?.witnessed = true }
            }
            return result
        case .proposal(let proposal):
            let result = self.proposal(proposal, message: message, from: sender, leaf: senderLeaf, record: &record, now: now)
            switch result {
            case .ignoredProposal, .unprocessable, .rejected:
                // Read above on a copy and not stored: its key is used up all the same (RFC 9420
                // §9.2; OpenMLS, under MDK, advances the secret tree as it decrypts). Kept unused,
                // each such proposal would leave us one generation further behind its sender, and
                // past the forward window the sender's next message would not open
                // (RetentionAttackTests). `inspect` authenticated the message on this state, so
                // using its key fails only where it is used already (a stored proposal whose
                // auto-commit failed: `.keyConsumed`, nothing left to do).
                try? record.mls.useUpKey(of: message)
            default:
                break
            }
            return result
        case .commit(let commit):
            return self.commit(commit, message: message, content: content, from: sender, event: event, record: &record, now: now)
        }
    }

    func application(_ message: MLSMessage, in group: inout Group, event: Event, group id: MLSGroupID) -> ProcessingResult {
        var next = group
        let processed: MLS.ReceivedMessage
        do { processed = try next.process(message) } catch { return .unprocessable(id, reason: error.code.name) }
        guard case .application(let data, let leaf) = processed else { return .unprocessable(id, reason: "not_application") }
        group = next
        let credential = next.tree.leaf(leaf)?.credential
        do {
            let rumor = try ApplicationRumor.open(data, sender: credential)
            return .applicationMessage(
                EngineInterface.ReceivedMessage(mlsGroupID: id, rumor: rumor, wrapperID: event.id, sender: rumor.pubkey))
        } catch {
            return .unprocessable(id, reason: error.code == .authorMismatch ? "author_mismatch" : error.code.name)
        }
    }

    /// MDK 0.8.0's answers: a non-admin's SelfRemove (or, for an admin receiver, a legacy Remove of the
    /// sender itself) is committed at once; Adds and Removes of others wait; anything else is ignored.
    func proposal(
        _ proposal: Proposal, message: MLSMessage, from sender: PublicKey, leaf: UInt32, record: inout GroupRecord,
        now: UInt64
    ) -> ProcessingResult {
        let id = record.id
        if profile == .current { return currentProposal(proposal, message: message, record: &record, now: now) }
        let senderIsAdmin = record.data.admins.contains(sender)
        let weAreAdmin = record.identity.map(record.data.admins.contains) ?? false
        let autoCommit: Bool
        switch proposal {
        case .selfRemove:
            guard !senderIsAdmin else { return .ignoredProposal(id, reason: "admin_self_remove") }
            autoCommit = true
        case .remove(let removed) where removed == leaf:
            guard !senderIsAdmin else { return .ignoredProposal(id, reason: "admin_self_remove") }
            autoCommit = weAreAdmin
        case .add, .remove:
            // A non-admin may not propose to add or remove others (MIP-03); such a proposal is not
            // stored, so our next commit cannot carry it (and a peer's commit that does is refused).
            guard senderIsAdmin || !MarmotReceiverCheck.nonAdminProposal.isOn else {
                return .ignoredProposal(id, reason: "proposal_from_non_admin")
            }
            autoCommit = false
        default:
            return .ignoredProposal(id, reason: "unsupported_proposal")
        }
        var next = record.mls
        do { _ = try next.process(message, now: now) } catch { return .unprocessable(id, reason: error.code.name) }
        record.mls = next
        guard autoCommit else { return .pendingProposal(id) }
        return commitLeave(record: &record, now: now)
    }

    /// Answers a leave with our own commit of it (MDK's auto-committer), staged until merged.
    func commitLeave(record: inout GroupRecord, now: UInt64) -> ProcessingResult {
        let id = record.id
        do {
            var staged = record.mls
            let including = record.identity.map { ownCommitFilter(record, as: $0) } ?? { _, _ in true }
            let created = try staged.commit(
                as: .privateMessage, now: now, judge: Self.judge(profile), including: including, using: &random)
            let event = try seal(created.commit, in: record)
            record.mls = staged
            record.pending = created.next
            record.pendingEvent = (event.id, event.createdAt)
            record.ownEvents[event.id] = .commit
            return .proposal(GroupEvolution(mlsGroupID: id, event: event, welcomeRumors: []))
        } catch {
            return .rejected(EngineError(.engineError, "auto-commit of a leave failed: \(error)"))
        }
    }

    func commit(
        _ commit: Commit, message: MLSMessage, content: AuthenticatedContent, from sender: PublicKey, event: Event,
        record: inout GroupRecord, now: UInt64
    ) -> ProcessingResult {
        let id = record.id
        guard case .member(let leaf) = content.content.sender else { return .unprocessable(id, reason: "sender_not_member") }
        if profile == .current {
            return currentCommit(message, from: sender, disbands: Self.disbands(commit), event: event, record: &record, now: now)
        }
        do {
            let proposals = try record.mls.resolvedProposals(of: commit, committer: content.content.sender)
            // Marmot has no reinitialization: a ReInit, by value or by reference, would end the
            // group for every member that applies it (issue 30, N11).
            if MarmotReceiverCheck.reInitRefused.isOn, proposals.contains(where: { if case .reInit = $0.proposal { true } else { false } })
            {
                return .unprocessable(id, reason: "reinit_refused")
            }
            var proposers: [UInt32: PublicKey] = [:]
            for case (_, .member(let proposer)) in proposals {
                proposers[proposer] = record.mls.tree.leaf(proposer).flatMap { ApplicationRumor.identity(of: $0.credential) }
            }
            try AdminPolicy.authorize(
                CommitSummary(
                    committer: leaf, committerIdentity: sender, proposals: proposals,
                    pathCredential: commit.path?.leafNode.credential, proposerIdentities: proposers),
                admins: record.data.admins)
        } catch let error as MarmotError {
            return .rejected(EngineError(error))
        } catch let error as MLSError where error.code == .unknownProposal {
            return .unprocessable(id, reason: error.code.name)
        } catch {
            return .unprocessable(id, reason: "\(error)")
        }
        var next = record.mls
        do { _ = try next.process(message, now: now) } catch { return .unprocessable(id, reason: error.code.name) }
        let before = RollbackPoint(before: record, createdAt: event.createdAt, eventID: event.id)
        if !next.isActive {
            record.mls = next
            record.pending = nil
            record.state = .inactive
            return .commit(id)
        }
        do {
            let data = try GroupData(extensions: next.context.extensions)
            try AdminPolicy.requireAdmin(admins: data.admins, members: GroupRecord.members(of: next))
            if let refusal = routingCollision(moving: record, to: data.nostrGroupID) { return .rejected(refusal) }
            try record.advance(to: next, endedAt: event.createdAt)
        } catch {
            return .rejected(EngineError(error))
        }
        record.rollback = PlantedRaceBug.receivedCommitIsFinal ? nil : before
        return .commit(id)
    }

    /// The answer to a republished copy of the commit we applied (issue 30, N1).
    static let duplicateCommit = "duplicate_commit"

    /// Whether two states are the same epoch reached by the same commit: the confirmed transcript
    /// hash covers the commit's content and signature (RFC 9420 §8.2), so two copies of one commit,
    /// however framed or wrapped, give the same one, and two different commits never do.
    static func isSameCommit(_ one: Group, as other: Group) -> Bool {
        one.epoch == other.epoch && one.context.confirmedTranscriptHash == other.context.confirmedTranscriptHash
    }

    /// A refusal when a commit would move `record`'s group onto the nostr_group_id of another group
    /// we hold, active or not (issue 30, N2): kind-445 events are routed by `h` alone, so two groups
    /// on one `h` would let the newer capture the older's traffic (MIP-01 nostr_group_id).
    func routingCollision(moving record: GroupRecord, to nostrGroupID: [UInt8]) -> EngineError? {
        guard nostrGroupID != record.data.nostrGroupID, MarmotReceiverCheck.groupIDCollision.isOn,
            let other = groups.first(where: { $0.key != record.id && $0.value.answers(nostrGroupID) })?.key
        else { return nil }
        return EngineError(
            .groupIDCollision, "the commit moves group \(record.id.hex) onto h \(nostrGroupID.hexString), which group \(other.hex) uses")
    }

    /// Merges our pending commit, which `event` carries, as `mergePendingCommit` does.
    func mergeOwn(_ event: Event, record: inout GroupRecord) -> ProcessingResult {
        do {
            try record.mergePending()
        } catch {
            return .rejected(EngineError(error))
        }
        groups[record.id] = record
        return .commit(record.id)
    }

    static func ingestError(_ error: MarmotError) -> EngineError {
        let code: EngineError.Code =
            switch error.code {
            case .groupEventTooOld: .eventTooOld
            case .groupEventInFuture: .eventInFuture
            case .invalidEncoding: .invalidEncoding
            // An id or signature that does not verify: the same code as the legacy check's.
            case .groupEventBadEvent: .invalidInput
            default: .invalidTags
            }
        return EngineError(code, error.description)
    }
}
