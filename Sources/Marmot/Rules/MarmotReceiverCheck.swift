// Test switches for the Marmot-level receiver checks: the MUST-reject rules that our engine
// (NativeSwiftEngine) enforces above MLS, from MIP-01…03. Same style as MLS's `ReceiverCheck`: a
// task-local set, empty outside tests, so every check runs in production and tests running in
// parallel never see each other's switches. The generated list in docs/receiver-checks.md
// (Tests/NativeSwiftEngineTests/EngineReceiverCheckTests.swift) names for every check an attack it
// alone stops: no check is dead code.

/// One MUST-reject rule of a Marmot receiver, by the place that enforces it.
package enum MarmotReceiverCheck: String, CaseIterable, Sendable {
    /// A key package's credential names the event's author (MIP-00): nobody can offer another's
    /// leaf under their own name.
    case keyPackageAuthor
    /// A group event is of kind 445 (MIP-03).
    case eventKind
    /// A group event has exactly one `h` tag of 64 hex characters and one `["encoding","base64"]`
    /// tag (MIP-03).
    case eventTags
    /// A group event's created_at lies in the accepted window: 45 days back, 5 minutes ahead.
    case eventTimeWindow
    /// A group event's id and Schnorr signature verify (NIP-01).
    case eventSignature
    /// Only an admin commits anything beyond a pure self-update or SelfRemove (MIP-03).
    case commitAuthorization
    /// A proposal carried by reference keeps its proposer's rights: an admin's commit may not carry
    /// a non-admin's Add, Remove or GroupContextExtensions (MIP-03).
    case proposerRights
    /// A commit's UpdatePath leaf keeps the committer's identity (MIP-03).
    case pathIdentity
    /// An Update proposal's leaf keeps its proposer's identity, also when another member commits
    /// it by reference (MIP-03).
    case updateIdentity
    /// Some admin of the group data is still a member after a commit (MIP-03).
    case adminRemains
    /// A non-admin's Add or Remove of another member is not stored as pending (MIP-03).
    case nonAdminProposal
    /// A Welcome for a group we are an active member of is refused (a replay would roll it back, MIP-02).
    case welcomeIntoHeldGroup
    /// A Welcome for a second group on the `h` of a group we hold is refused (MIP-01 nostr_group_id).
    case welcomeOntoHeldH
    /// A Welcome's cipher_suite is the Marmot suite our key packages and groups use (RFC 9420
    /// §12.4.3.1, MIP-02).
    case welcomeCipherSuite
    /// A welcome rumor carries the tags MIP-02 requires: a `relays` tag of ws(s):// URLs, a non-empty
    /// `e` naming the key-package event, a non-empty `client` when present, one
    /// `["encoding","base64"]`.
    case welcomeRumorTags
    /// A welcome rumor is of kind 444 (MIP-02): a rumor of another kind is no Welcome, whatever its
    /// content holds.
    case welcomeRumorKind
    /// A message of an earlier epoch written after its sender left the group is not read.
    case senderRemoved
    /// An application message's inner rumor is authored by the MLS sender (MIP-03).
    case rumorAuthor
    /// A key-package event is of kind 30443 or legacy 443 (MIP-00).
    case keyPackageKind
    /// A kind-30443 key package has a `d` tag of 64 hex characters (MIP-00, NIP-01 addressable).
    case keyPackageDTag
    /// A key package's `mls_protocol_version` tag is "1.0" (MIP-00).
    case keyPackageVersionTag
    /// A key package's `mls_ciphersuite` tag names the Marmot suite 0x0001 (MIP-00).
    case keyPackageSuiteTag
    /// A key package's `mls_extensions` tag lists last_resort and 0xf2ee (MIP-00).
    case keyPackageExtensionsTag
    /// A key package's `relays` tag holds at least one ws(s):// URL (MIP-00).
    case keyPackageRelaysTag
    /// A key package's `mls_proposals` tag is exactly SelfRemove, and present on kind 30443 (MIP-00).
    case keyPackageProposalsTag
    /// A key package's `i` tag is its KeyPackageRef, and present on kind 30443 (MIP-00).
    case keyPackageRef
    /// A key package's lifetime includes the time it is validated at (RFC 9420 §10.1, MIP-00).
    case keyPackageLifetime
    /// The 0xF2EE group data's version is not 0 (MIP-01). (Lengths that frame the structure,
    /// UTF-8 text and admin keys are decoding itself: without them there is no group data to read.)
    case groupDataVersion
    /// The 0xF2EE group data's relays are ws(s):// URLs (MIP-01).
    case groupDataRelays
    /// The 0xF2EE group data's image fields are empty or of their exact length (MIP-01).
    case groupDataImages
    /// A Welcome names one of our key packages (MIP-02): we do not try a Welcome sealed to others.
    case welcomeForOurKeyPackage
    /// An application message's rumor is UTF-8 (MIP-03); with the check off, bad bytes would be
    /// read as U+FFFD, a text the sender never wrote. (Its JSON is decoding itself: without it
    /// there is no rumor.)
    case rumorUTF8
    /// A kind-445 content is at least a nonce and a tag long (MIP-03) before the AEAD is tried.
    /// (The ChaCha20-Poly1305 open itself has no switch: without it there is no plaintext.)
    case groupEventLength
    /// A key-package event's id and Schnorr signature verify (NIP-01); MDK 0.8.0 does not check them.
    case keyPackageEventSignature
    /// A key-package event has exactly one `["encoding","base64"]` tag (MIP-00).
    case keyPackageEncodingTag

    // Round two (issue 30): N8, N9, N11, N12 of the receiver review.
    /// N8: a proposal of the epoch we can still roll back to is kept at the rollback point only if
    /// the proposal policy would store it now (a non-admin's Add or Remove of another is not).
    case rollbackProposalPolicy
    /// N9: a kind-445 content that opens under a group key but is no MLSMessage is invalid input,
    /// remembered as failed, never reported `undecryptable` (which the caller retries).
    case plaintextDecodes
    /// N11: a commit carrying a ReInit is refused: Marmot has no reinitialization, and applying one
    /// ends the group for every member.
    case reInitRefused
    /// N12: the 0xF2EE group data's version is the one whose layout we read (2); another version is
    /// refused, not read as 2.
    case groupDataKnownVersion
    /// N12: the 0xF2EE admin and relay lists are ascending and distinct as written; out of order is
    /// refused, not sorted.
    case groupDataOrder
    // Round two of the receiver review (issue 30, N1–N4).

    /// A competing commit for the epoch we rolled forward from that is the commit we applied (its
    /// content republished in a new kind-445 under another key and time) is a duplicate, never a
    /// rival: the group is not rolled back, and the epoch's secret tree is not rebuilt (MIP-03).
    case replayedCommit
    /// A commit may not move a group onto the nostr_group_id (`h`) of another group we hold:
    /// routing by `h` must name one group (MIP-01 nostr_group_id).
    case groupIDCollision
    /// A Welcome into a group we left or were removed from is accepted only at an epoch after the
    /// last one we held (a replayed old Welcome would take us back in, MIP-02).
    case welcomeIntoLeftGroup
    /// A welcome rumor's author is the member whose leaf signed the GroupInfo (MIP-02): nobody
    /// sends on another's Welcome as theirs.
    case welcomerIsSigner
    /// Sender side: our commit carries only the pending proposals our receivers' admin policy lets
    /// us commit (MIP-03), so one stored proposal cannot make every commit of ours refused. Its row
    /// shows a receiver's answer to our commit.
    case ownCommitPolicy
    /// N3: a key package without last_resort is retired by the first Welcome that uses it (RFC 9420
    /// §10, MIP-00): its private half is dropped, so a second Welcome for it, replayed or
    /// unsolicited, is refused.
    case keyPackageRetired
    // Caps (issue 30, N6 and N10): bounds on what a member keeps. Each switch lifts one cap, so its
    // row shows what the member would keep, or lose, without it.

    /// N6: one group's record in the state file is at most `EngineStateFile.maximumGroupRecordSize`
    /// bytes, refused when written and not decoded when read.
    case groupRecordCap
    /// N6: a group record that does not load makes that group `group_unrecoverable`, not the whole
    /// state file unreadable.
    case groupIsolation
    /// N10: a group record remembers at most `GroupRecord.retainedEventIDs` handled and failed
    /// wrapper ids each.
    case eventIDRetention

    /// Checks switched off in the current task (tests only).
    @TaskLocal package static var disabled: Set<MarmotReceiverCheck> = []

    /// Whether this check runs.
    package var isOn: Bool { !Self.disabled.contains(self) }
}
