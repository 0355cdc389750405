// The canonical protocol snapshot of one member's group (marmot-protocol/marmot,
// foundation/conformance.md, "Canonical snapshot"): the projection two clients are compared on,
// equality over protocol meaning rather than storage. It is a conformance-test interface only: no
// wire message, no trace entry, never part of a stored vector.
//
// Every field is either a value or `unsupported` with the reason the engine cannot give it, so a
// field an engine lacks is reported as such, never read as equal.

/// One field of a ``ProtocolSnapshot``: what the engine gives, or why it cannot.
public enum SnapshotField<Value: Hashable & Sendable>: Hashable, Sendable {
    case value(Value)
    case unsupported(reason: String)

    /// The value, nil when unsupported.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }
}

/// One nonblank leaf of the ratchet tree.
public struct SnapshotLeaf: Hashable, Sendable {
    public let index: UInt32
    /// The Marmot account identity: the basic credential's identity bytes (a Nostr x-only key on
    /// both profiles), lowercase hex.
    public let identity: String
    /// The leaf's MLS signature public key, lowercase hex.
    public let signatureKey: String
    public let capabilities: SnapshotCapabilities

    public init(index: UInt32, identity: String, signatureKey: String, capabilities: SnapshotCapabilities) {
        self.index = index
        self.identity = identity
        self.signatureKey = signatureKey
        self.capabilities = capabilities
    }
}

/// A leaf's advertised capabilities (RFC 9420 `Capabilities`, values raw and in the leaf's order,
/// GREASE kept) and, when the leaf carries an `app_data_dictionary` with an `app_components` entry
/// (the current profile), the component ids it lists.
public struct SnapshotCapabilities: Hashable, Sendable {
    public let versions: [UInt16]
    public let cipherSuites: [UInt16]
    public let extensions: [UInt16]
    public let proposals: [UInt16]
    public let credentials: [UInt16]
    public let components: [UInt16]?

    public init(
        versions: [UInt16], cipherSuites: [UInt16], extensions: [UInt16], proposals: [UInt16], credentials: [UInt16],
        components: [UInt16]?
    ) {
        self.versions = versions
        self.cipherSuites = cipherSuites
        self.extensions = extensions
        self.proposals = proposals
        self.credentials = credentials
        self.components = components
    }
}

/// The group's `required_capabilities` (GroupContext extension 0x0003); all lists empty when the
/// GroupContext carries none.
public struct SnapshotRequiredCapabilities: Hashable, Sendable {
    public let extensionTypes: [UInt16]
    public let proposalTypes: [UInt16]
    public let credentialTypes: [UInt16]

    public init(extensionTypes: [UInt16], proposalTypes: [UInt16], credentialTypes: [UInt16]) {
        self.extensionTypes = extensionTypes
        self.proposalTypes = proposalTypes
        self.credentialTypes = credentialTypes
    }
}

/// One `app_data_dictionary` entry of the GroupContext with its exact value bytes. On the legacy
/// profile, which has no dictionary, the one entry is keyed 0xF2EE (the group-data extension's
/// type) and holds that extension's exact bytes.
public struct SnapshotDictionaryEntry: Hashable, Sendable {
    public let component: UInt16
    public let data: [UInt8]

    public init(component: UInt16, data: [UInt8]) {
        self.component = component
        self.data = data
    }

    /// The key the legacy profile's group data stands under.
    public static let legacyGroupData: UInt16 = 0xF2EE
}

/// A required publication the member has prepared and not seen acknowledged (our own commit,
/// staged until it is merged or cleared).
public struct SnapshotPublication: Hashable, Sendable {
    /// The id of the outbound event: SHA-256 over its NIP-01 serialization, so it names the exact
    /// bytes (content, tags, time, signer).
    public let eventID: String
    /// The epoch the group enters once it is merged.
    public let pendingEpoch: UInt64
    /// Whether an external publish attempt may have happened (the event has been handed out).
    public let attemptMayHaveOccurred: Bool
    /// Whether the acknowledgement is known to have succeeded.
    public let acknowledged: Bool

    public init(eventID: String, pendingEpoch: UInt64, attemptMayHaveOccurred: Bool, acknowledged: Bool) {
        self.eventID = eventID
        self.pendingEpoch = pendingEpoch
        self.attemptMayHaveOccurred = attemptMayHaveOccurred
        self.acknowledged = acknowledged
    }
}

/// What became of one input the member ingested, keyed by the input's event id.
public struct SnapshotDisposition: Hashable, Sendable {
    public let input: String
    public let disposition: String

    public init(input: String, disposition: String) {
        self.input = input
        self.disposition = disposition
    }
}

/// The canonical snapshot of one member's group (foundation/conformance.md).
public struct ProtocolSnapshot: Hashable, Sendable {
    /// The raw MLS group id, lowercase hex.
    public let groupID: SnapshotField<String>
    public let epoch: SnapshotField<UInt64>
    /// SHA-256 of the TLS-serialized GroupContext, lowercase hex.
    public let groupContextHash: SnapshotField<String>
    /// `SHA256("marmot-convergence-conformance-v1" || 0x00 || MLS-Exporter("marmot",
    /// "convergence-conformance-v1", 32))`, lowercase hex (``ExactGroupState/exporterLabel``).
    public let exporterCommitment: SnapshotField<String>
    /// Every nonblank leaf, in leaf-index order.
    public let leaves: SnapshotField<[SnapshotLeaf]>
    public let requiredCapabilities: SnapshotField<SnapshotRequiredCapabilities>
    /// In ascending component order.
    public let dictionary: SnapshotField<[SnapshotDictionaryEntry]>
    /// The member's lifecycle of the group (the engine's group state: active, inactive, pending).
    public let lifecycle: SnapshotField<String>
    /// The member's convergence status (whether a convergence pass is unresolved).
    public let convergence: SnapshotField<String>
    /// Local gates and terminal local conditions that restrict legal group actions.
    public let localGates: SnapshotField<[String]>
    /// Unresolved required publications.
    public let publications: SnapshotField<[SnapshotPublication]>
    /// The disposition of every input the member knows, sorted by input.
    public let dispositions: SnapshotField<[SnapshotDisposition]>
    /// Application effects by stable identity (`message:<rumor id>` for a message shown), sorted.
    public let effects: SnapshotField<[String]>

    public init(
        groupID: SnapshotField<String>, epoch: SnapshotField<UInt64>, groupContextHash: SnapshotField<String>,
        exporterCommitment: SnapshotField<String>, leaves: SnapshotField<[SnapshotLeaf]>,
        requiredCapabilities: SnapshotField<SnapshotRequiredCapabilities>, dictionary: SnapshotField<[SnapshotDictionaryEntry]>,
        lifecycle: SnapshotField<String>, convergence: SnapshotField<String>, localGates: SnapshotField<[String]>,
        publications: SnapshotField<[SnapshotPublication]>, dispositions: SnapshotField<[SnapshotDisposition]>,
        effects: SnapshotField<[String]>
    ) {
        self.groupID = groupID
        self.epoch = epoch
        self.groupContextHash = groupContextHash
        self.exporterCommitment = exporterCommitment
        self.leaves = leaves
        self.requiredCapabilities = requiredCapabilities
        self.dictionary = dictionary
        self.lifecycle = lifecycle
        self.convergence = convergence
        self.localGates = localGates
        self.publications = publications
        self.dispositions = dispositions
        self.effects = effects
    }

    /// The fields' protocol names (the driver protocol's keys, and the names diffs use), in order.
    public enum FieldName: String, CaseIterable, Sendable {
        case groupID = "mls_group_id"
        case epoch = "epoch"
        case groupContextHash = "group_context_hash"
        case exporterCommitment = "exporter_commitment"
        case leaves = "leaves"
        case requiredCapabilities = "required_capabilities"
        case dictionary = "app_data_dictionary"
        case lifecycle = "lifecycle"
        case convergence = "convergence"
        case localGates = "local_gates"
        case publications = "pending_publications"
        case dispositions = "input_dispositions"
        case effects = "effects"

        /// Fields every member of a converged group must hold equal; the others are one member's
        /// own (its gates, its outbox, what it ingested and showed).
        public var isShared: Bool {
            switch self {
            case .groupID, .epoch, .groupContextHash, .exporterCommitment, .leaves, .requiredCapabilities, .dictionary: true
            case .lifecycle, .convergence, .localGates, .publications, .dispositions, .effects: false
            }
        }
    }
}

extension EngineCapability {
    /// Answers `protocol_snapshot` (the canonical snapshot of foundation/conformance.md).
    public static let protocolSnapshot = Self(rawValue: "group.protocol_snapshot")
}
