import EngineInterface
import Nostr

// Events of an epoch we have not reached yet. Catching up, a member may meet a commit (or a
// message) before the commit that leads to its epoch: two commits made in the same second come
// in id order, not in the order they were made, and a reordered or delayed frame can overtake
// its predecessor. No key of ours opens such an event yet, so the engine refuses it as
// undecryptable. We keep it (at most `CatchUpBook.maximumFutureEvents` per chat, oldest dropped)
// and hand it over again, in MIP-03 order, each time a commit moves the chat to a new epoch, at
// most `CatchUpBook.maximumFutureRetries` times (history from before our join never opens); once it goes
// through, its rejection is withdrawn. A commit the engine cannot process yet because it names a
// proposal that has not reached us (delayed or reordered on its way) is kept the same way, and
// kept events are also tried again when a proposal arrives: otherwise the commit's receiver
// stays behind for good (fault matrix: leave, proposal delivered late). An engine that remembers the failure (MDK 0.8.0) answers
// "previously failed" and the event is let go quietly: the first rejection stands.
/// A kept event, how many times it was handed over again, and whether it waits for a proposal
/// (then it is also handed over when one arrives).
struct FutureEvent: Sendable, Codable {
    let event: Event
    let retries: Int
    var waitsForProposal = false
}

extension GroupCore {
    /// The reason an engine gives for a commit naming a proposal it has not received (our
    /// engine's `mls.unknownProposal`). MDK 0.8.0 words it otherwise and remembers the failure
    /// anyway, so its events are not kept: handing them over again would change nothing.
    static let unknownProposalReason = "mls.unknownProposal"

    func keepForLaterEpoch(_ event: Event, in chatID: String, waitsForProposal: Bool = false) {
        guard configuration.behaviour.recovery.retriesFutureEvents, chats[chatID] != nil else { return }
        catchUp.keepForLaterEpoch(event, in: chatID, waitsForProposal: waitsForProposal)
    }

    /// A proposal arrived: the kept commits that name one not received before are tried again
    /// (only they: another engine call would be wasted on the rest).
    func retryCommitsWaitingForProposal(in chatID: String) async {
        guard catchUp.waitsForProposal(in: chatID) else { return }
        await retryFutureEvents(in: chatID)
    }

    /// A commit moved the chat on: the kept events are tried again, oldest first, as long as
    /// one of them moves the chat further.
    func retryFutureEvents(in chatID: String) async {
        guard !catchUp.retrying else { return }
        catchUp.retrying = true
        defer { catchUp.retrying = false }
        while let kept = catchUp.takeFutureEvents(in: chatID) {
            let epoch = chats[chatID]?.epoch
            for entry in kept {
                catchUp.retryCount = entry.retries + 1
                await processGroupEvent(entry.event, retry: true)
            }
            guard chats[chatID]?.epoch != epoch, catchUp.hasFutureEvents(in: chatID) else { return }
        }
    }

    /// Whether the event may still go through: still unopened (no key yet: false), or a commit
    /// naming a proposal not received yet (true); nil when not.
    static func mayGoThroughLater(_ result: ProcessingResult) -> Bool? {
        switch result {
        case .rejected(let error) where error.code == .undecryptable: false
        case .unprocessable(_, let reason) where reason == unknownProposalReason: true
        default: nil
        }
    }

    /// The result of a retried event; true when it was handled here (still unopened: kept again
    /// quietly; failed before: let go). Otherwise its earlier rejection is withdrawn and the
    /// result is applied as for a fresh event.
    func retriedFutureEvent(_ event: Event, result: ProcessingResult, in chatID: String) async -> Bool {
        if let waitsForProposal = Self.mayGoThroughLater(result) {
            catchUp.keepAfterRetry(event, in: chatID, waitsForProposal: waitsForProposal)
            return true
        }
        switch result {
        case .previouslyFailed, .unprocessable, .rejected:
            return true
        default:
            ui.rejections.removeAll { $0.eventID == event.id.hex }
            note("event \(event.id.hex.prefix(8)) opened in epoch \(chats[chatID]?.epoch ?? 0); rejection withdrawn")
            changed("withdrawn rejection \(event.id.hex.prefix(8))")
            return false
        }
    }
}
