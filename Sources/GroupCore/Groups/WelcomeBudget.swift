import Nostr

// How many invitees one commit can welcome. Every MIP-02 welcome carries the whole ratchet tree
// (the Marmot spec forbids sending it out of band), so a welcome grows with the group (~210 bytes
// per member) and, in a bulk creation, with the number of invitees too (~150 bytes each for their
// EncryptedGroupSecrets). The rumor is then sealed and gift-wrapped (NIP-59): two NIP-44 layers
// (above 65,535 plaintext bytes with the extended length prefix of nips PR #1907), and an outer
// event the invitee's inbox relay must accept.
// Figures: docs/findings/welcome-size-limits.md.

/// The size limits one welcome must meet on its way to an invitee, and estimates made from them.
struct WelcomeBudget: Hashable, Sendable, Codable {
    /// The largest event the invitees' inbox relays accept (the wrap's JSON).
    let maximumEventBytes: Int
    /// The largest rumor JSON whose gift wrap meets NIP-44 and `maximumEventBytes`.
    let maximumRumorBytes: Int

    init(maximumEventBytes: Int) {
        self.maximumEventBytes = maximumEventBytes
        // Sizes grow with the rumor: the largest that fits, by bisection over NIP-44's range.
        var low = 0
        var high = NIP44.plaintextLengths.upperBound
        while low < high {
            let middle = (low + high + 1) / 2
            if GiftWrap.sizes(rumorJSONBytes: middle).fits(maximumEventBytes: maximumEventBytes) { low = middle } else { high = middle - 1 }
        }
        maximumRumorBytes = low
    }

    /// Whether `rumor` can be gift-wrapped and stored by the invitee's inbox relays.
    func fits(_ rumor: UnsignedEvent) -> Bool { rumor.rumorJSON().utf8.count <= maximumRumorBytes }

    /// How many of `keyPackages` (taken in order) a creation can welcome in its one commit: the
    /// welcome rumor of a group of the creator plus k invitees is estimated from the key packages
    /// themselves (a member's leaf in the ratchet tree is its key package's leaf node) and kept
    /// under the `maximumRumorBytes` of every invitee counted (`budgets`, one per key package: the
    /// commit's welcomes are all the same size). At least one when any is given, so that creation
    /// goes ahead and the rest follow in add commits, whose welcomes are measured exactly.
    static func creationBatchSize(keyPackages: [Event], budgets: [WelcomeBudget], groupDataBytes: Int) -> Int {
        guard !keyPackages.isEmpty else { return 0 }
        let leaves = keyPackages.map(Self.leafBytes(of:))
        // The creator's own leaf is not known here: counted as the largest invitee leaf.
        var treeBytes = (leaves.max() ?? 0) + Self.perLeafOverhead
        var allowed = Int.max
        var count = 0
        for (leaf, budget) in zip(leaves, budgets) {
            treeBytes += leaf + Self.perLeafOverhead
            allowed = min(allowed, budget.maximumRumorBytes)
            let welcomeBytes = Self.fixedWelcomeBytes + groupDataBytes + treeBytes + (count + 1) * Self.secretsBytesPerInvitee
            guard Self.rumorBytes(welcomeBytes: welcomeBytes) <= allowed else { break }
            count += 1
        }
        return max(count, 1)
    }

    // Estimates, each on the safe side of what RFC 9420 encodes (checked against both engines by
    // WelcomeBudgetTests and the welcome-size bench).

    /// MLSMessage and Welcome headers, GroupContext (id, epoch, hashes), the GroupInfo's
    /// confirmation tag, signer and signature, the AEAD tag and vector length prefixes.
    static let fixedWelcomeBytes = 420
    /// EncryptedGroupSecrets of one invitee: KeyPackageRef, HPKE KEM output, sealed GroupSecrets.
    static let secretsBytesPerInvitee = 160
    /// A tree node's presence and type bytes, a blank parent node, and vector prefixes.
    static let perLeafOverhead = 4
    /// The kind-444 rumor around the base64 welcome: id, pubkey, created_at, tags (relays, e,
    /// client, encoding) and JSON punctuation.
    static let rumorOverheadBytes = 600

    static func rumorBytes(welcomeBytes: Int) -> Int { (welcomeBytes + 2) / 3 * 4 + rumorOverheadBytes }

    /// A key package's leaf node is what it adds to the tree: the key package (MIP-00 content in
    /// base64, or hex without an encoding tag) less its MLSMessage header, version, suite, HPKE
    /// init key, empty extensions and signature (4 + 4 + 33 + 1 + 65 bytes).
    static func leafBytes(of keyPackage: Event) -> Int {
        let base64 = keyPackage.tags.contains { $0.first == "encoding" && $0.dropFirst().first == "base64" }
        let encoded = keyPackage.content.utf8.count
        let bytes = base64 ? encoded / 4 * 3 : encoded / 2
        return max(0, bytes - 107)
    }
}
