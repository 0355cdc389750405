// Test switches for the NIP-59 rules a gift-wrap receiver applies, in the style of MLS's
// `ReceiverCheck` and Marmot's `MarmotReceiverCheck`: a task-local set, empty outside tests, so every
// rule runs in production and tests running in parallel never see each other's switches. The
// generated list in docs/receiver-checks.md names for each an unwrap it alone refuses.

/// One MUST-reject rule of `GiftWrap.unwrap`.
public enum GiftWrapCheck: String, CaseIterable, Sendable {
    /// The outer event is of kind 1059.
    case wrapKind
    /// The outer event's id and Schnorr signature verify (NIP-01): an event handed over undecoded
    /// by a relay frame is trusted only once verified here.
    case wrapSignature
    /// The decrypted seal is of kind 13.
    case sealKind
    /// The seal's id and Schnorr signature verify: the seal is what proves the sender.
    case sealSignature
    /// The rumor's author is the seal's signer: nobody can seal a rumor in another's name.
    case sealAuthor
    /// The seal's tags are empty (NIP-59): a seal is signed by the sender's own key, and anything
    /// tagged on it would be metadata the wrap exists to hide (issue 30, N12).
    case sealTags

    /// Checks switched off in the current task (tests only).
    @TaskLocal public static var disabled: Set<GiftWrapCheck> = []

    /// Whether this check runs.
    public var isOn: Bool { !Self.disabled.contains(self) }
}
