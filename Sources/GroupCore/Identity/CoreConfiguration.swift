import EngineInterface
import Nostr

/// Who a member is and which relays it uses for what (the relay roles of Pika): the host builds
/// this from the world's generator and relay plan.
package struct CoreConfiguration: Sendable {
    /// The member's Nostr identity; it signs profiles, relay lists, key packages and seals.
    package var keypair: Keypair
    /// The kind-0 `name`.
    package var profileName: String
    /// The kind-0 profile's `picture` URL (NIP-01 metadata); nil publishes a profile without one.
    package var profilePicture: String? = nil
    /// Where profiles (kind 0) and relay lists (kinds 10050, 10051) are published and read.
    package var discoveryRelays: [String]
    /// Where our key package (kind 30443) is published; listed in our kind 10051.
    package var keyPackageRelays: [String]
    /// Where gift wraps to us arrive; listed in our kind 10050.
    package var inboxRelays: [String]
    /// The relays written into the group data of groups we create.
    package var groupRelays: [String]
    /// How the member behaves: timeouts and whether it publishes a key package.
    package var behaviour: Behaviour
    /// The largest event each relay (by URL) says it accepts, as an app reads it from the relay's
    /// NIP-11 information document before inviting (the simulated world answers from its relays'
    /// policies). Welcomes are sized for the invitee's inbox relays by it; a relay missing here is
    /// assumed to take `behaviour.welcomeEventLimitBytes`.
    package var relayEventLimits: [String: Int] = [:]
    /// The Marmot profile the member's engine speaks: a key package of the other profile is
    /// refused with `profile_mismatch` before the engine sees it, so the user is told who must
    /// upgrade (`core.profileMismatch`) rather than that the contact has no usable key package.
    package var marmotProfile: MarmotProfile = .legacy
    /// The member's crash switch (restart matrix, docs/restart-matrix.md): the core stops at the
    /// armed crash point. nil: no crash point is ever reached (every run but the matrix's).
    package var crashSwitch: CrashSwitch?

    /// The tunable behaviour of a member, with its defaults written once (the simulation's member
    /// options carry this same value rather than copies of its fields).
    package struct Behaviour: Sendable {
        /// False models a member that never published a key package (invitations to it fail).
        package var publishesKeyPackage: Bool
        /// How long a key-package fetch waits for relays before the silent ones count as timed out.
        package var keyPackageFetchTimeoutMilliseconds: UInt64
        /// How long a published commit waits for an accepting OK before it is cleared (MIP-03).
        package var commitTimeoutMilliseconds: UInt64
        /// How long a merged commit of ours settles before its welcomes leave: a competing commit
        /// stored just after ours may still precede it in MIP-03 order and replace it.
        package var commitSettleMilliseconds: UInt64
        /// The post-join self-update waits this long times (our rank among the members + 1).
        package var selfUpdateStaggerMilliseconds: UInt64
        /// How an accepted commit of ours is merged.
        package var ownCommitMerge: OwnCommitMerge

        /// How an accepted commit of ours is merged.
        package enum OwnCommitMerge: String, Sendable, CaseIterable {
            /// Its event is handed to the engine like a received commit, so that the engine keeps
            /// the state before it and a better competing commit can still replace it (MIP-03).
            case asReceived = "as-received"
            /// The engine's plain merge (`merge_pending_commit`), as MDK's documented flow does:
            /// the engine must then keep the state before it of its own accord.
            case plain
        }
        /// MIP-00 allows a NIP-70 protected key package (`["-"]`); relays that refuse protected
        /// events (or want NIP-42 AUTH first) then do not store it.
        package var protectsKeyPackage = false
        /// An engine-level conformance probe, never an app setting: kind-445 events whose Nostr
        /// id or signature fails are handed to the engine anyway (instead of being rejected here),
        /// so a scenario can see whether the engine itself verifies its input (NIP-01, MIP-03).
        package var handsUnverifiedGroupEventsToEngine = false
        /// Non-nil makes the member a chat relay (a forwarding service for channels, no UI state)
        /// that treats broadcasts this way.
        package var chatRelay: ChatRelayConduct?
        /// For tests only (the mutation check of the permission table): checks this member skips on
        /// both sides. Shipped configurations leave it empty.
        package var disabledPermissionChecks: Set<PermissionCheck>
        /// For tests only (the twin of the visibility matrix): views that skip the visibility rule
        /// and show every message. Shipped configurations leave it empty.
        package var bypassedVisibilityViews: Set<MessageView> = []
        /// For tests only (the twin of the runner's action-outcome check): the core records the
        /// actions dispatched but never their outcome. Shipped configurations leave it off.
        package var dropsActionOutcomes = false
        /// Whether a welcome is joined at once or waits for the user (seed 001 §2). Automatic by
        /// default: every scenario recorded before the prompt existed joins that way, and an
        /// invitee that waits changes the trace of every group it is invited to.
        package var invitations: InvitationAcceptance = .automatic
        /// How many times a commit with no OK is published again (the same signed event, waiting
        /// twice as long each time) before it is cleared: a relay that stored it answers
        /// `OK true "duplicate:"` (NIP-01), so a lost OK does not split the group.
        package var commitRepublishAttempts = 2
        /// How many times a welcome no relay accepted is sent again, backing off from 2 s.
        package var welcomeRetryAttempts = 6
        /// How many times a chat or control message every relay refused is sent again, backing off from 2 s.
        package var refusedPublishRetryAttempts = 6
        /// How long a chat message, control message, welcome or leave proposal waits for its
        /// relays' OK before the same signed event is published again to the silent ones (NIP-01
        /// wants an OK for every EVENT; a relay that lost the frame never sends one). Longer than
        /// the 10 s a delayed frame takes in the fault matrix, so that a late OK is not raced.
        package var publishTimeoutMilliseconds: UInt64 = 15_000
        /// How many times such a publish is sent again without any OK (waiting twice as long each
        /// time) before it is reported (`core.publishUnacknowledged`, `core.welcomeUndelivered`).
        package var publishRepublishAttempts = 3
        /// The largest event (gift wrap JSON) an invitee's inbox relay is assumed to accept when
        /// it has not said (`relayEventLimits`): 64 KiB, the default of strfry and of rust-nostr's
        /// relay. Invitations are split so that every welcome's wrap fits its invitee's inbox.
        package var welcomeEventLimitBytes = 65_536
        /// How many of a chat's last messages the adding admin sends its joiners (history for new
        /// members, while the owner's preference is on). 20: a screenful, enough to follow the
        /// conversation a joiner walks into; older ones stay with those who were there.
        package var historyForNewMembersCount = 20
        /// The largest history packet (its JSON) an admin sends; the oldest messages give way.
        /// 24 KiB keeps the kind-445 event, after MLS framing and base64, far inside 64 KiB relays.
        package var historyBudgetBytes = 24_576
        /// Receivers refuse a history packet from a non-admin (`history.notFromAdmin`). A test
        /// switch, never a user option: off, a test shows the forged packet getting through.
        package var checksHistorySender = true
        /// How many handled event ids the core remembers to spot copies (`SeenEvents.retained`);
        /// a test knob that only lowers the cap (a larger value is read as the cap), so that a
        /// test floods past it in little time. Never a user option.
        package var retainedEventIDs = SeenEvents.retained
        /// Test switches (package-level, never a user option): each recovery rule can be turned off
        /// so that a test shows the scenario it exists for failing without it.
        package var recovery = Recovery()

        /// The recovery rules of GroupCore (docs/group-core.md, "Recovery from lost frames").
        package struct Recovery: Sendable {
            /// A commit whose OK was lost is republished, and our own commit served back by a
            /// relay counts as that relay's acceptance.
            package var storedCommits = true
            /// A prepared commit and a requested leave are recorded durably before they go out
            /// (write-ahead, restart-matrix boundaries 1 and 9), so a crash before the publish
            /// retries the same obligation after the restart instead of losing it.
            package var writesAhead = true
            /// After a restart: running timers start again (a settle window, a commit timeout),
            /// every subscription is put back and catches up on what was stored meanwhile, and
            /// every publish no relay answered goes out again. Each is a restart-matrix twin's
            /// switch (RestartMatrixTests).
            package var restartsTimers = true
            package var resubscribesAfterRestart = true
            package var resendsAfterRestart = true
            /// Events held while our commit waits for its OK are kept with it across a restart,
            /// so the frozen batch is resolved whole once the OK comes (restart-matrix boundary 6).
            package var keepsHeldBatch = true
            /// A chat the engine moved past while the app was not told (it died between the two)
            /// is read again at the restart (restart-matrix boundary 4).
            package var rederivesAfterRestart = true
            /// A group whose durable record the engine lost or cannot read is marked Unrecoverable
            /// at the restart (restart-matrix boundary 8): the user is told, and its later inputs
            /// are deferred as `missing_history` instead of handed to an engine that has no branch
            /// of the group to apply them on.
            package var marksUnrecoverableGroups = true
            /// A message of ours the engine invalidated when its branch lost (restart-matrix
            /// boundary 7: the epoch it was sent in was superseded) is sent again, the same rumor,
            /// in the epoch that won. Off: it is marked failed and the user told
            /// (`core.messageSuperseded`).
            package var resendsSupersededMessages = true
            /// Welcomes are retried until a relay accepts them (and held while it is unreachable).
            package var welcomes = true
            /// Control messages wait in the outbox while their relays are unreachable.
            package var controlOutbox = true
            /// Chat and control messages refused by every relay are sent again (backing off).
            package var refusedPublishes = true
            /// A non-admin whose leave proposal died with its epoch proposes again.
            package var leaveProposals = true
            /// Subscriptions that died with their connection (a relay down, a lost frame) are put
            /// back, with backoff, and catch up on what was stored meanwhile.
            package var resubscribes = true
            /// A group catch-up whose stored answer may have been cut by the relay's result cap
            /// (a REQ without `limit` gets only the newest N on most relays: 500 on rust-nostr's
            /// LocalRelay and strfry) asks for the older events with `until`, page by page
            /// (Relays/CatchUp.swift). Off, a member back from a long absence misses the oldest.
            package var pagesCatchUp = true
            /// A chat message, control message, welcome or leave proposal with no OK in time is
            /// published again (the same signed event), then reported.
            package var unansweredPublishes = true
            /// A leave proposal is tracked like a control message (held while its relays are
            /// unreachable, sent again when refused or unanswered, reported when it never gets
            /// through) instead of being published once and forgotten.
            package var leaveDelivery = true
            /// Messages ordered after a delete-group are hidden by receivers.
            package var dropsAfterDeletion = true
            /// In a group with several admins, our commit waits for an epoch a received commit
            /// just made to settle.
            package var settlesBeforeCommitting = true
            /// Group events no key opens are kept and handed to the engine again after each
            /// commit (they may belong to an epoch not reached yet).
            package var retriesFutureEvents = true
            /// A commit of ours the engine left for a competitor the group built on
            /// (`ProcessingResult.rivalCommit`) is treated as one that lost its race: what it was
            /// for is asked for again in the epoch that won.
            package var redoesCommitsLeftForRival = true
            /// A commit of ours replaced by a better competing commit after its settle window is
            /// treated as one replaced within it: what it was for is asked for again.
            package var redoesLateReplacedCommits = true
            /// Our commit of a leave proposal that lost its race is followed by our removal of
            /// the leavers still listed in the winning epoch.
            package var redoesLostLeaves = true
            /// A welcome refused while a resubscription catches up (we still held its group) is
            /// tried again if that catch-up removes us, and events refused while we were out of a
            /// group are handed to the engine again when a welcome takes us back.
            package var rejoinsAfterCatchUp = true
            /// A restarted member's core is made from the state it persisted (docs/core-state-format.md).
            /// Off: it starts again with an empty state (its engine still reopens its store).
            package var persistsAcrossRestart = true
            package init() {}
        }

        package init(
            publishesKeyPackage: Bool = true,
            keyPackageFetchTimeoutMilliseconds: UInt64 = 5_000,
            commitTimeoutMilliseconds: UInt64 = 5_000,
            commitSettleMilliseconds: UInt64 = 1_000,
            selfUpdateStaggerMilliseconds: UInt64 = 500,
            ownCommitMerge: OwnCommitMerge = .asReceived,
            chatRelay: ChatRelayConduct? = nil,
            disabledPermissionChecks: Set<PermissionCheck> = []
        ) {
            self.chatRelay = chatRelay
            self.publishesKeyPackage = publishesKeyPackage
            self.keyPackageFetchTimeoutMilliseconds = keyPackageFetchTimeoutMilliseconds
            self.commitTimeoutMilliseconds = commitTimeoutMilliseconds
            self.commitSettleMilliseconds = commitSettleMilliseconds
            self.selfUpdateStaggerMilliseconds = selfUpdateStaggerMilliseconds
            self.ownCommitMerge = ownCommitMerge
            self.disabledPermissionChecks = disabledPermissionChecks
        }
    }

    package init(
        keypair: Keypair,
        profileName: String,
        discoveryRelays: [String],
        keyPackageRelays: [String],
        inboxRelays: [String],
        groupRelays: [String],
        behaviour: Behaviour = Behaviour()
    ) {
        self.keypair = keypair
        self.profileName = profileName
        self.discoveryRelays = discoveryRelays
        self.keyPackageRelays = keyPackageRelays
        self.inboxRelays = inboxRelays
        self.groupRelays = groupRelays
        self.behaviour = behaviour
    }

    /// The group name of a 1:1 chat; any other name makes a two-member chat a group.
    package static let directChatName = ""
}
