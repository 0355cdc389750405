// Test switches for the deep receiver checks. Each check below can be switched off for the current
// task only (a task-local, so tests running in parallel never see each other's switches); with
// none switched off, which is always the case outside tests, every check runs. The generated list
// in docs/receiver-checks.md, checked by Tests/MLSTests/ReceiverCheckTests.swift, names for every
// check a negative test that fails once the check is off: no check is dead code.

/// One MUST-reject rule of a receiver, by the place that enforces it.
package enum ReceiverCheck: String, CaseIterable, Sendable {
    /// A framed message is for our group and epoch (RFC 9420 §6).
    case epoch
    /// A member's PublicMessage carries the right membership tag (§6.2).
    case membershipTag
    /// The content is signed by its sender's leaf key (§6.1).
    case signature
    /// PrivateMessageContent padding is all zero (§6.3.1).
    case padding
    /// A commit's confirmation tag matches the new epoch (§6.1, §12.4.2).
    case confirmationTag
    /// A Welcome's GroupInfo is signed by its signer's leaf (§12.4.3.1).
    case groupInfoSignature
    /// The Welcome's tree hashes to the GroupInfo's tree_hash (§12.4.3.1).
    case treeHash
    /// Every parent node of the Welcome's tree is parent-hash valid (§7.9.2).
    case parentHash
    /// A commit's UpdatePath leaf is a valid leaf of the new tree: keys unique, required
    /// capabilities supported (§7.3, §12.4.2).
    case pathLeaf
    /// No extension list holds one type twice (§13.4).
    case duplicateExtensions
    /// A member sender names a non-blank leaf (§6: a member sender is identified by the leaf_index
    /// of its leaf; a blank leaf is no member).
    case blankLeafSender
    /// A commit whose proposals need an UpdatePath carries one (§12.4, checked as §12.4.2 says):
    /// an empty commit, or one covering an Update, Remove, SelfRemove, GroupContextExtensions or
    /// ExternalInit.
    case pathRequired
    /// An UpdatePath has one node per node of the sender's filtered direct path, and one
    /// ciphertext per node of each copath resolution (§7.6, §12.4.2).
    case updatePathShape
    /// Every non-blank parent between an unmerged leaf and the parent listing it lists it too
    /// (a joiner's check of the ratchet tree, §12.4.3.1).
    case unmergedLeaves
    /// A commit's proposals name no PreSharedKeyID twice (§12.2).
    case duplicatePSK
    /// A PreSharedKeyID's psk_nonce is KDF.Nh bytes long (§8.4).
    case pskNonceLength
    /// A framed message's MLSMessage.version is mls10 (§6).
    case messageVersion
    /// An added KeyPackage's protocol version is the group's (§10.1, §12.1.1).
    case keyPackageVersion
    /// An added KeyPackage's cipher suite is the group's (§10.1, §12.1.1).
    case keyPackageCipherSuite
    /// A Welcome's GroupContext names protocol version mls10 (§8.1, §12.4.3.1).
    case groupContextVersion
    /// A joiner supports every non-default GroupContext extension: its own leaf's capabilities list
    /// them (§7.2 capabilities, §11 group extensions every member must support; the rule §12.1.7
    /// applies to members for GroupContextExtensions, checked here by the joiner of itself).
    case joinerExtensions
    /// The Welcome's cipher suite is the one of the KeyPackage it is for (§12.4.3.1).
    case welcomeKeyPackageSuite
    /// An added KeyPackage's signature verifies under its leaf's signature key (§10.1).
    case keyPackageSignature
    /// An added KeyPackage's leaf is signed by its own key, as a key_package-sourced leaf (§7.3, §10.1).
    case keyPackageLeafSignature
    /// A commit's UpdatePath leaf is signed by the committer's leaf key (§7.3, §12.4.2).
    case pathLeafSignature
    /// An Add's KeyPackage repeats no signature or encryption key of the group or of another Add:
    /// it does not represent a client already in the group (§12.2, §7.3).
    case addKeyUniqueness
    /// No leaf is the subject of two Update, Remove or SelfRemove proposals in one commit (§12.2).
    case oneProposalPerLeaf
    /// A Remove names a non-blank leaf (§12.1.3).
    case removeBlankLeaf
    /// A commit carries no Update proposal of the committer's own leaf (§12.2).
    case committerUpdate
    /// A commit carries at most one GroupContextExtensions proposal (§12.2).
    case singleGroupContextExtensions
    /// An Update proposal's leaf is signed by the proposer's leaf key (§7.3, §12.1.2).
    case updateLeafSignature
    /// An Update proposal's leaf brings an encryption key new to the tree (§7.3, §12.1.2).
    case updateKeyReuse
    /// A ReInit is the only proposal of its commit (§12.2).
    case reInitAlone
    /// A regular commit's resumption PSK has usage `application` (§8.6, §12.2).
    case resumptionUsage

    /// A proposal message's sender type may send its proposal type: a member anything but an
    /// ExternalInit, an external sender Add, Remove, PreSharedKey, ReInit or GroupContextExtensions,
    /// a new_member_proposal sender only an Add (§12.1.8, §12.1.5). Checked when a proposal is
    /// stored, so a commit can only reference proposals that passed it.
    case proposalSender
    /// A member's commit carries no ExternalInit: it belongs to an external commit (§12.1.5, §12.2).
    case externalInitInMemberCommit
    /// An external commit covers exactly one ExternalInit, at most one Remove and otherwise only
    /// PreSharedKeys (§12.2).
    case externalCommitShape
    /// An external commit covers no proposal by reference (§12.4.3.2: its sender cannot judge them).
    case externalCommitReferences
    /// A commit does not Remove its committer (§12.2).
    case committerRemoved
    /// An added KeyPackage's leaf has source key_package (§7.3, §10.1).
    case keyPackageLeafSource
    /// An added KeyPackage's init_key differs from its leaf's encryption_key (§10.1).
    case keyPackageInitKey
    /// An Update proposal's leaf has source update (§7.3, §12.1.2).
    case updateLeafSource
    /// A commit's UpdatePath leaf has source commit (§7.3, §12.4.2).
    case pathLeafSource
    /// The encryption keys of an UpdatePath (its leaf's and its nodes') are all distinct (§7.3, §12.4.2).
    case pathKeysDistinct
    /// The UpdatePath leaf's parent_hash is the one the path's nodes give (§7.9, §12.4.2).
    case pathParentHash
    /// An added leaf supports the group's required capabilities and lists the extensions it
    /// carries (§7.2, §11.1, §12.1.1).
    case addCapabilities
    /// An added leaf's credential type is supported by every member, and it supports every
    /// credential type in use (§7.2, §12.1.1).
    case addCredentialTypes
    /// An Update proposal's leaf supports the group's required capabilities (§7.2, §12.1.2).
    case updateCapabilities
    /// Under a GroupContextExtensions proposal, every member supports the new required
    /// capabilities (§12.1.7).
    case extensionsCapabilities
    /// Every member supports each non-default proposal type a commit covers (§12.2).
    case proposalTypeSupport
    /// A joiner verifies the signature of every leaf of the Welcome's tree (§12.4.3.1, §7.3).
    case joinerLeafSignatures
    /// A joiner finds no signature or encryption key twice in the Welcome's tree (§12.4.3.1, §7.3).
    case joinerKeyUniqueness
    /// A joiner finds every leaf of the Welcome's tree supporting the required capabilities and
    /// the credential types in use (§12.4.3.1, §7.3).
    case joinerCapabilities
    /// A joiner's own leaf is in the Welcome's tree, identical to its KeyPackage's (§12.4.3.1).
    case joinerOwnLeaf
    /// A joiner's private keys (its leaf's, and those derived from the path secret) match the
    /// public keys of the Welcome's tree (§12.4.3.1).
    case joinerPrivateKeys

    /// A framed message names our group's group_id (§6).
    case groupID
    /// Application data travels only as PrivateMessage (§6.2: PublicMessage carries handshake
    /// content only); also the sender-side refusal, which unchecked builders skip.
    case publicApplicationData
    /// A commit's sender is a member or, for an external commit, new_member_commit (§12.4).
    case commitSender
    /// An added KeyPackage is within its lifetime at the time given to `process` (§7.3, §10.1).
    case addLifetime
    /// The path secrets a receiver decrypts derive the public keys the UpdatePath carries (§12.4.2).
    case pathDerivedKeys
    /// A Welcome's GroupInfo carries the confirmation tag of its epoch (§12.4.3.1).
    case groupInfoConfirmationTag
    /// A Welcome's GroupInfo names the Welcome's cipher suite (§12.4.3.1).
    case groupInfoSuite
    /// A commit that removes us passes every check a removed member can make (its UpdatePath's
    /// shape, leaf, signatures and parent hashes, §12.4.2) before our membership ends: otherwise
    /// a forged removal would take effect first (issue 30, N7).
    case removalAfterChecks
    /// A ratchet tree holds at most ``RatchetTreeNodes/maxNodes`` nodes, counted as it is read, so
    /// a Welcome of a million blank slots is refused before they are decoded or padded (issue 30, N5).
    case treeWidth
    /// A group keeps the resumption PSKs of its last ``Group/retainedResumptionPSKs`` epochs only
    /// (issue 30, N10): a cap on what a member keeps, not a wire rule; switched off, every epoch's
    /// PSK stays (and is copied into every past epoch kept).
    case resumptionPSKRetention

    /// Checks switched off in the current task (tests only).
    @TaskLocal package static var disabled: Set<ReceiverCheck> = []

    /// Whether this check runs.
    package var isOn: Bool { !Self.disabled.contains(self) }
}
