// "Let the user decide" (the product's answer to a MIP-00 partial failure): an action whose policy
// is `.ask` and whose key-package lookup left some invitees unusable creates or commits nothing. It
// waits as a pending decision, shown in `AppState.pendingDecisions` with the usable and the failed
// invitees, until the user answers with `AppAction.decide`: retry the failed ones (the decision
// stays, with fresh reasons, while some still fail), proceed without them, or cancel.
import Nostr

/// A pending decision as the core keeps it: the state the UI sees plus the key packages found.
struct DecisionRecord: Sendable, Codable {
    var state: PendingDecision
    /// What the action was (create or add, with its policy settled to `.proceed` on resolution).
    let purpose: KeyPackageFetch.Purpose
    /// Every invitee in the order the action named them (welcome order survives a retry).
    let peers: [PublicKey]
    var found: [PublicKey: Event]
    /// Orders decisions in the state, oldest first.
    let sequence: UInt64
}

extension GroupCore {
    /// Records a decision for an action that found unusable invitees.
    func leaveDecision(for purpose: KeyPackageFetch.Purpose, ready: [(PublicKey, Event)], failed: [FailedPeer]) {
        let sequence = makeNumber()
        let id = "decision-\(sequence)"
        let action: PendingDecision.Action
        switch purpose {
        case .create(let name, _, _, _): action = .createGroup(name: name)
        case .add(let chatID, _): action = .addMembers(chatID: chatID)
        case .channel, .retry: return
        }
        let peers = ready.map(\.0) + failed.map(\.pubkey)
        membership.decisions[id] = DecisionRecord(
            state: PendingDecision(id: id, action: action, ready: ready.map(\.0), failed: failed, retrying: false),
            purpose: purpose, peers: peers, found: Dictionary(ready, uniquingKeysWith: { first, _ in first }), sequence: sequence)
        changed("decision \(id): \(failed.count) invitee(s) failed, \(ready.count) ready")
    }

    /// The user's answer.
    func decide(_ id: String, _ choice: DecisionChoice) async {
        guard let record = membership.decisions[id] else {
            fail(CoreError(.unknownDecision, "no pending decision \(id)"), chatID: nil)
            return
        }
        guard !record.state.retrying else {
            fail(CoreError(.busy, "decision \(id) is still looking its invitees up again"), chatID: record.purpose.chatID)
            return
        }
        switch choice {
        case .cancel:
            membership.decisions[id] = nil
            changed("decision \(id) cancelled")
        case .proceed:
            guard canResolve(record) else { return }
            membership.decisions[id] = nil
            changed("decision \(id): proceed")
            await resolve(record)
        case .retry:
            membership.decisions[id]?.state.retrying = true
            changed("decision \(id): retry")
            fetchKeyPackages(of: record.state.failed.map(\.pubkey), for: .retry(decisionID: id))
        }
    }

    /// A retry's lookup finished: with nobody failing any more the action goes ahead; otherwise the
    /// decision waits again with the new reasons.
    func retried(_ id: String, found: [(PublicKey, Event)], failed: [FailedPeer]) async {
        guard var record = membership.decisions[id] else { return }
        for (peer, event) in found { record.found[peer] = event }
        record.state.failed = failed
        record.state.ready = record.peers.filter { record.found[$0] != nil }
        record.state.retrying = false
        if failed.isEmpty, canResolve(record) {
            membership.decisions[id] = nil
            changed("decision \(id): every invitee found on retry")
            await resolve(record)
        } else {
            membership.decisions[id] = record
            changed("decision \(id): \(failed.count) invitee(s) still failed")
        }
    }

    /// An add can go ahead only while its chat takes commits from us (else the reason is recorded
    /// and the decision stays, to be answered again).
    private func canResolve(_ record: DecisionRecord) -> Bool {
        guard case .add(let chatID, _) = record.purpose else { return true }
        return writableChat(chatID, needsAdmin: true) != nil
    }

    /// Carries the action out with the invitees found, reporting the failed ones.
    private func resolve(_ record: DecisionRecord) async {
        let found = record.peers.compactMap { peer in record.found[peer].map { (peer, $0) } }
        await carryOut(record.purpose, found: found, failed: record.state.failed, policy: .proceed)
    }
}
