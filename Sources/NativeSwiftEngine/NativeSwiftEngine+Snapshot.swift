// The canonical protocol snapshot (marmot-protocol/marmot, foundation/conformance.md) of one of our
// groups, for the convergence oracle and restart comparisons. Conformance only: nothing here is
// sent, traced or stored; it reads the record and draws no randomness.
import EngineInterface
import HexEncoding
import MLS
import Marmot
import TLSCodec

extension NativeSwiftEngine {
    package func protocolSnapshot(of group: MLSGroupID) async throws(EngineError) -> ProtocolSnapshot {
        try Self.protocolSnapshot(of: record(group))
    }

    /// Why our engine gives no convergence status: it settles commit races as they arrive (MIP-03
    /// order, keeping one rollback point) and runs no collecting or resolving pass that could be
    /// unresolved.
    static let noConvergencePass =
        "the engine settles commit races at ingest (MIP-03 order with a rollback point) and runs no convergence pass to report"

    /// The prefix of an effect a branch switch invalidated (boundary 7).
    package static let invalidatedEffect = "invalidated:"

    static func protocolSnapshot(of record: GroupRecord) throws(EngineError) -> ProtocolSnapshot {
        let mls = record.mls
        let exact = try exactState(of: mls)
        let extensions = mls.context.extensions
        let leaves: [SnapshotLeaf]
        let required: RequiredCapabilities
        let dictionary: [SnapshotDictionaryEntry]
        do {
            var found: [SnapshotLeaf] = []
            for index in mls.tree.occupiedLeaves {
                guard let leaf = mls.tree.leaf(index) else { continue }
                let caps = leaf.capabilities
                found.append(
                    SnapshotLeaf(
                        index: index, identity: identity(of: leaf.credential), signatureKey: leaf.signatureKey.hexString,
                        capabilities: SnapshotCapabilities(
                            versions: caps.versions, cipherSuites: caps.cipherSuites, extensions: caps.extensions,
                            proposals: caps.proposals,
                            credentials: caps.credentials, components: try leaf.extensions.appDataDictionary()?.appComponents())))
            }
            leaves = found
            if let bytes = extensions.data(ofType: ExtensionType.requiredCapabilities) {
                required = try RequiredCapabilities(tlsBytes: bytes)
            } else {
                required = RequiredCapabilities(extensionTypes: [], proposalTypes: [], credentialTypes: [])
            }
            switch record.profile {
            case .current:
                dictionary = (try extensions.appDataDictionary()?.entries ?? []).map {
                    SnapshotDictionaryEntry(component: $0.componentID, data: $0.data)
                }
            case .legacy:
                // No dictionary on the legacy profile: the 0xF2EE group data stands in its place.
                dictionary =
                    extensions.data(ofType: GroupData.extensionType).map {
                        [SnapshotDictionaryEntry(component: SnapshotDictionaryEntry.legacyGroupData, data: $0)]
                    } ?? []
            }
        } catch {
            throw EngineError(.internal, "the group state does not project: \(error)")
        }
        return ProtocolSnapshot(
            groupID: .value(mls.groupID.hexString), epoch: .value(mls.epoch),
            groupContextHash: exact.groupContextHash.map(SnapshotField.value) ?? .unsupported(reason: "no GroupContext"),
            exporterCommitment: exact.exporterCommitment.map(SnapshotField.value) ?? .unsupported(reason: "no exporter"),
            leaves: .value(leaves),
            requiredCapabilities: .value(
                SnapshotRequiredCapabilities(
                    extensionTypes: required.extensionTypes, proposalTypes: required.proposalTypes,
                    credentialTypes: required.credentialTypes)),
            dictionary: .value(dictionary),
            lifecycle: .value(record.state.rawValue),
            convergence: .unsupported(reason: noConvergencePass),
            // Every group action but reading needs an active membership (`activeRecord`); a
            // staged commit gates nothing (a new one replaces it).
            localGates: .value(record.state == .active ? [] : ["\(record.state.rawValue): group actions refused"]),
            publications: .value(
                record.pending.flatMap { next in
                    record.pendingEvent.map {
                        // Handed to the caller to publish (so it may have gone out) and not yet
                        // merged (so no acknowledgement is known).
                        [
                            SnapshotPublication(
                                eventID: $0.id.hex, pendingEpoch: next.epoch, attemptMayHaveOccurred: true, acknowledged: false)
                        ]
                    }
                } ?? []),
            // A commit of a branch not selected is `superseded`, whether it was applied and then
            // replaced (processed) or met after the selected one (failed).
            dispositions: .value(
                (record.processed.subtracting(record.superseded).map { SnapshotDisposition(input: $0.hex, disposition: "processed") }
                    + record.failed.subtracting(record.superseded).map { SnapshotDisposition(input: $0.hex, disposition: "failed") }
                    + record.superseded.map { SnapshotDisposition(input: $0.hex, disposition: "superseded") })
                    .sorted { ($0.input, $0.disposition) < ($1.input, $1.disposition) }),
            // A message of a branch not selected is an `invalidated:` effect until delivered again.
            effects: .value(
                Set(
                    record.messages.map { "message:\($0.rumor.id.hex)" }
                        + record.invalidated.map { "\(invalidatedEffect)message:\($0.rumor.id.hex)" }
                ).sorted()))
    }

    /// A leaf's account identity: the basic credential's identity bytes; other credential types are
    /// named by type (Marmot admits none, but a hostile tree may carry one).
    static func identity(of credential: Credential) -> String {
        switch credential {
        case .basic(let identity): identity.hexString
        case .x509: "x509"
        }
    }
}
