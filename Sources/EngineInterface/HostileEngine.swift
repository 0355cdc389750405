import Nostr

/// Conformance only: an engine that can also act as a hostile member, building protocol-valid yet
/// forbidden or deliberately malformed MLS traffic in one of its groups (issue 14). Honest engines
/// need not offer it; an engine that does declares ``EngineCapability/hostile``. The runner
/// publishes what it returns; the engine's own group state moves only where an attack says so.
package protocol HostileEngine: Sendable {
    func forge(_ request: ForgeRequest) async throws(EngineError) -> ForgedTraffic
}

/// One attack, in the group whose `h` is `nostrGroupID`.
package struct ForgeRequest: Sendable, Hashable {
    package let attack: HostileAttack
    /// The group's Nostr id (the `h` tag value, hex).
    package let nostrGroupID: String
    /// The member the attack names (removed, impersonated, invited, …), if any.
    package let target: PublicKey?
    /// The target's key-package event, for attacks that add or welcome it.
    package let targetKeyPackage: Event?
    /// Our Nostr identity (the welcome rumors' author).
    package let sender: PublicKey

    package init(attack: HostileAttack, nostrGroupID: String, target: PublicKey?, targetKeyPackage: Event?, sender: PublicKey) {
        self.attack = attack
        self.nostrGroupID = nostrGroupID
        self.target = target
        self.targetKeyPackage = targetKeyPackage
        self.sender = sender
    }
}

/// What an attack produced: kind-445 events to publish in order, and welcome rumors to gift-wrap
/// to the target.
package struct ForgedTraffic: Sendable, Hashable {
    package let events: [Event]
    package let welcomeRumors: [UnsignedEvent]

    package init(events: [Event], welcomeRumors: [UnsignedEvent] = []) {
        self.events = events
        self.welcomeRumors = welcomeRumors
    }
}

/// The attacks a hostile member makes (the scenario verb `attack` names them by raw value).
package enum HostileAttack: String, Sendable, Hashable, CaseIterable {
    /// A non-admin's Add proposal for the target's key package (MIP-03).
    case proposeAdd = "propose-add"
    /// A non-admin's Add proposal of a fresh leaf whose credential names the target (an admin).
    case proposeAddAsAdmin = "propose-add-as-admin"
    /// A non-admin's Remove proposal of the target.
    case proposeRemove = "propose-remove"
    /// A non-admin's GroupContextExtensions proposal naming itself admin.
    case proposeAdmin = "propose-admin"
    /// Non-admin commits: Add of the target, Remove of the target, itself made admin.
    case commitAdd = "commit-add"
    case commitRemove = "commit-remove"
    case commitAdmin = "commit-admin"
    /// A GroupContextExtensions commit carrying two marmot_group_data extensions (RFC 9420 §13.4),
    /// the first keeping the admins, the second naming only us.
    case duplicateGroupData = "duplicate-group-data"
    /// A self-update commit whose confirmation tag is wrong (§6.1).
    case badConfirmationTag = "bad-confirmation-tag"
    /// Self-update commits whose UpdatePath leaf breaks RFC 9420 §7.3: it reuses another member's
    /// encryption key, or its capabilities omit the group's required extensions.
    case pathLeafKeyReuse = "path-leaf-key-reuse"
    case pathLeafCapabilities = "path-leaf-capabilities"
    /// A self-update commit whose UpdatePath leaf is signed by a key not ours (§7.3).
    case pathLeafSignature = "path-leaf-signature"
    /// An empty commit without the UpdatePath it requires (§12.4).
    case commitWithoutPath = "commit-without-path"
    /// A self-update commit whose UpdatePath has one node more than our filtered direct path (§12.4.2).
    case extraPathNode = "extra-path-node"
    /// A proposal as a PublicMessage whose membership tag is wrong (§6.2).
    case badMembershipTag = "bad-membership-tag"
    /// An application message whose header names the next epoch, or the previous one.
    case futureEpoch = "future-epoch"
    case pastEpoch = "past-epoch"
    /// An application message from us after we were removed, under the keys of our last epoch.
    case removedMemberMessage = "removed-member-message"
    /// Two application messages on one ratchet generation (§9.1).
    case reusedGeneration = "reused-generation"
    /// An application message with non-zero padding (§6.3.1).
    case badPadding = "bad-padding"
    /// An application message whose sender field names the target, signed with our key.
    case impersonation
    /// An application message whose MLSMessage names protocol version 2 (§6).
    case wrongVersion = "wrong-version"
    /// A self-update commit for the epoch before the current one, dated before the commit that
    /// ended it (MIP-03's race rule under MDK 0.8.0 lets it win).
    case backdatedCommit = "backdated-commit"
    /// The Welcome we joined with, sent again to the target (who joined by the same one).
    case replayedWelcome = "replayed-welcome"
    /// A new group reusing this group's `h`, with the target invited.
    case lookalikeGroup = "lookalike-group"
    /// Welcomes to the target into a fresh group of ours, each broken in one place (§12.4.3.1).
    case welcomeBadSignature = "welcome-bad-signature"
    case welcomeBadTreeHash = "welcome-bad-tree-hash"
    case welcomeBadParentHash = "welcome-bad-parent-hash"
    /// Current profile only (app-components/account-identity-proof-v2.md, component 0x8009):
    /// self-update commits whose replacement leaf breaks the account identity proof: no 0x8009
    /// entry in its `app_data_dictionary` (still advertised in `app_components`); an entry whose
    /// BIP-340 signature does not verify; an entry validly signed by another Nostr account than the
    /// leaf's BasicCredential names (signer_pubkey ≠ identity).
    case leafProofMissing = "leaf-proof-missing"
    case leafProofForged = "leaf-proof-forged"
    case leafProofOtherAccount = "leaf-proof-other-account"
    /// Current profile only: a Welcome to the target into a fresh group of ours whose ratchet tree
    /// holds our leaf without its 0x8009 proof (every Welcome-tree leaf is verified).
    case welcomeLeafProofMissing = "welcome-leaf-proof-missing"
    /// Current profile only (libmarmot's openmls_forgeries classes): an Add commit of a fresh
    /// account's key package whose leaf has no 0x8009 entry, or a proof whose signature is tampered.
    case addLeafProofMissing = "add-leaf-proof-missing"
    case addLeafProofForged = "add-leaf-proof-forged"
    /// Current profile only: a commit of one app_data_update removing a component the group
    /// requires: the admin policy (0x8003), the lifecycle (0x800c), or the required list (0x0001).
    case dropAdminPolicy = "drop-admin-policy"
    case dropLifecycle = "drop-lifecycle"
    case dropComponentList = "drop-component-list"
    /// Current profile only: a commit setting the admin list (0x8003) to nobody, or naming an
    /// account that holds no leaf (admin-policy-v1.md: non-empty, every admin a member).
    case emptyAdminList = "empty-admin-list"
    case adminNotMember = "admin-not-member"
    /// Issue 30, N7: a commit (ours, as admin) removing the target whose UpdatePath leaf is
    /// signed by a key not ours: everyone must refuse it, the target included.
    case commitRemoveBadPath = "commit-remove-bad-path"
    /// Issue 30, N9: a kind-445 event whose content opens under the group's key but holds bytes
    /// that are no MLSMessage.
    case undecodablePlaintext = "undecodable-plaintext"
    /// Issue 30, N11: a commit (ours, as admin) carrying a ReInit by value, alone.
    case commitReInit = "commit-reinit"
    /// Round two (issue 30). The content of the last commit we saw applied in the group, republished
    /// in a new kind-445 under a fresh key, dated one second before the original (it ranks first
    /// under MIP-03's created_at rule), or one second after it (it ranks after). Needs no secret.
    case replayedCommit = "replayed-commit"
    case replayedCommitLater = "replayed-commit-later"
    /// An admin's commit (ours) moving this group's nostr_group_id onto the `h` of another group we
    /// hold (the first other one by MLS group id): kind-445 routing by `h` would become ambiguous.
    case retargetGroupID = "retarget-group-id"
    /// The Welcome we sent the target when we added it to this group, sent again unchanged (after
    /// the target was removed, it would take the target back in at the old epoch).
    case resentWelcome = "resent-welcome"
    /// A Welcome to the target into a fresh group of ours whose ratchet tree is widened past the
    /// reader's cap (65,537 slots: 2^15 + 1 leaves), hashed and signed so that only a width cap stops it.
    case oversizedTree = "oversized-tree"
    /// Issue 30, N12 and the field's Welcome classes: a valid Welcome to the target into a fresh
    /// group of ours, which the target never asked for (marmot#383: it must not burn the key
    /// package); the same with its `e` tag dropped, or naming an event that is none of the target's
    /// key packages (whitenoise-rs#534, #622); and one sealed to a key package we made in the
    /// target's name, whose private half the target never held, its `e` tag naming the target's
    /// real key-package event (mdk#1910; legacy profile).
    case unsolicitedWelcome = "unsolicited-welcome"
    case welcomeWithoutKeyPackageTag = "welcome-without-key-package-tag"
    case welcomeWrongKeyPackageTag = "welcome-wrong-key-package-tag"
    case welcomeForOtherKeyPackage = "welcome-for-other-key-package"
    /// The field's "any member could post as any other member" (libmarmot 0.9.0's advisory): an
    /// honest application message of ours, sent and signed as ourselves, whose inner rumor names
    /// the target as its author (MIP-03: the rumor's author is the MLS sender).
    case innerAuthor = "inner-author"
    /// Issue 30, N8 (legacy): in the epoch the last commit ended, our Remove of the target, then
    /// our self-update carrying it by reference, both dated before that commit (MIP-03's created_at
    /// rule ranks the self-update first): a receiver that kept the Remove at its rollback point
    /// without the proposal policy would let it ride in when it rolls back.
    case rollbackEpochProposal = "rollback-epoch-proposal"
    /// Issue 30, N10 (legacy): more ignored proposals of ours (no-op GroupContextExtensions) than a
    /// receiver remembers wrapper ids (4,096 + 4), their ids ground to start with 0xFF, so that a
    /// receiver keeping the largest ids forgets every id it held before the flood.
    case proposalFlood = "proposal-flood"
}

extension EngineCapability {
    /// Builds hostile traffic (``HostileEngine``).
    package static let hostile = Self(rawValue: "conformance.hostile")
}
