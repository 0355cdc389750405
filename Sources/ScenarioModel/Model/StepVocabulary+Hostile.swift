// The hostile member's verb (issue 14; docs/hostile-members.md):
//   - attack: { by: mallory, attack: propose-remove, target: bob, group: Team }
// `by`'s engine builds the attack (it must offer conformance.hostile: our Swift engine does, so a
// scenario pins the attacker with `engine: swift`); the runner publishes the kind-445 events to
// `relay` (default `group`) and gift-wraps welcome rumors to the target's inbox.

/// The attacks, by the names scenarios use (EngineInterface's `HostileAttack` lists the same raw
/// values and says what each does; ModelMappingTests checks they agree).
package enum AttackName: String, Sendable, Hashable, CaseIterable {
    case proposeAdd = "propose-add"
    case proposeAddAsAdmin = "propose-add-as-admin"
    case proposeRemove = "propose-remove"
    case proposeAdmin = "propose-admin"
    case commitAdd = "commit-add"
    case commitRemove = "commit-remove"
    case commitAdmin = "commit-admin"
    case duplicateGroupData = "duplicate-group-data"
    case badConfirmationTag = "bad-confirmation-tag"
    case pathLeafKeyReuse = "path-leaf-key-reuse"
    case pathLeafCapabilities = "path-leaf-capabilities"
    case pathLeafSignature = "path-leaf-signature"
    case commitWithoutPath = "commit-without-path"
    case extraPathNode = "extra-path-node"
    case badMembershipTag = "bad-membership-tag"
    case futureEpoch = "future-epoch"
    case pastEpoch = "past-epoch"
    case removedMemberMessage = "removed-member-message"
    case reusedGeneration = "reused-generation"
    case badPadding = "bad-padding"
    case impersonation
    case wrongVersion = "wrong-version"
    case backdatedCommit = "backdated-commit"
    case replayedWelcome = "replayed-welcome"
    case lookalikeGroup = "lookalike-group"
    case welcomeBadSignature = "welcome-bad-signature"
    case welcomeBadTreeHash = "welcome-bad-tree-hash"
    case welcomeBadParentHash = "welcome-bad-parent-hash"
    case leafProofMissing = "leaf-proof-missing"
    case leafProofForged = "leaf-proof-forged"
    case leafProofOtherAccount = "leaf-proof-other-account"
    case welcomeLeafProofMissing = "welcome-leaf-proof-missing"
    case addLeafProofMissing = "add-leaf-proof-missing"
    case addLeafProofForged = "add-leaf-proof-forged"
    case dropAdminPolicy = "drop-admin-policy"
    case dropLifecycle = "drop-lifecycle"
    case dropComponentList = "drop-component-list"
    case emptyAdminList = "empty-admin-list"
    case adminNotMember = "admin-not-member"
    case commitRemoveBadPath = "commit-remove-bad-path"
    case undecodablePlaintext = "undecodable-plaintext"
    case commitReInit = "commit-reinit"
    case replayedCommit = "replayed-commit"
    case replayedCommitLater = "replayed-commit-later"
    case retargetGroupID = "retarget-group-id"
    case resentWelcome = "resent-welcome"
    case oversizedTree = "oversized-tree"
    case unsolicitedWelcome = "unsolicited-welcome"
    case welcomeWithoutKeyPackageTag = "welcome-without-key-package-tag"
    case welcomeWrongKeyPackageTag = "welcome-wrong-key-package-tag"
    case welcomeForOtherKeyPackage = "welcome-for-other-key-package"
    case innerAuthor = "inner-author"
    case rollbackEpochProposal = "rollback-epoch-proposal"
    case proposalFlood = "proposal-flood"
}

/// One attack: who makes it, which, on whom, in which chat.
package struct AttackStep: Sendable, Hashable {
    package let by: String
    package let attack: AttackName
    package let target: String?
    package let group: String?
    package let relay: String
}

extension StepVocabulary {
    static let attackVerb = StepVerb(
        name: "attack", summary: "a hostile member's engine builds an MLS-level attack, which is published as it",
        shape: .fields([
            by, FieldSpec("attack", .word(AttackName.allCases.map(\.rawValue)), required: true), FieldSpec("target", .member),
            FieldSpec("group", .text), FieldSpec("relay", .relay),
        ]), requirement: .engine(.hostile)
    ) { f in
        .attack(
            AttackStep(
                by: try f.string("by"), attack: try f.word("attack", as: AttackName.self), target: try f.optionalString("target"),
                group: try f.optionalString("group"), relay: try f.optionalString("relay") ?? "group"))
    }
}
