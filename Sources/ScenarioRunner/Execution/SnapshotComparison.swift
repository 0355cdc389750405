// The canonical protocol snapshot (marmot-protocol/marmot, foundation/conformance.md) as the
// convergence oracle compares it: field by field, path by path, between two members of one group.
// Only the fields every member must share are compared (`FieldName.isShared`); a field one side
// cannot give is reported as not compared, never as equal.
import EngineInterface

enum SnapshotComparison {
    /// One field as a tree to diff, or why it is not there.
    enum Projection: Equatable {
        case value(Outcome)
        case unsupported(String)
    }

    /// `field` of `snapshot` as an ``Outcome`` tree whose paths name what differs: leaves by leaf
    /// index, dictionary entries by component id (hex), capability lists by name.
    static func projection(_ snapshot: ProtocolSnapshot, _ field: ProtocolSnapshot.FieldName) -> Projection {
        func project<T>(_ field: SnapshotField<T>, _ tree: (T) -> Outcome) -> Projection {
            switch field {
            case .value(let value): .value(tree(value))
            case .unsupported(let reason): .unsupported(reason)
            }
        }
        func numbers(_ values: [UInt16]) -> Outcome { .list(values.map { .integer(Int64($0)) }) }
        switch field {
        case .groupID: return project(snapshot.groupID, Outcome.string)
        // As text: an epoch past Int64.max must not clamp into equality with another.
        case .epoch: return project(snapshot.epoch) { .string(String($0)) }
        case .groupContextHash: return project(snapshot.groupContextHash, Outcome.string)
        case .exporterCommitment: return project(snapshot.exporterCommitment, Outcome.string)
        case .leaves:
            return project(snapshot.leaves) { leaves in
                .map(
                    Dictionary(
                        leaves.map { leaf in
                            let caps = leaf.capabilities
                            return (
                                String(leaf.index),
                                Outcome.map([
                                    "identity": .string(leaf.identity), "signature_key": .string(leaf.signatureKey),
                                    "capabilities": .map([
                                        "versions": numbers(caps.versions), "cipher_suites": numbers(caps.cipherSuites),
                                        "extensions": numbers(caps.extensions), "proposals": numbers(caps.proposals),
                                        "credentials": numbers(caps.credentials), "components": caps.components.map(numbers) ?? .null,
                                    ]),
                                ])
                            )
                        }, uniquingKeysWith: { first, _ in first }))
            }
        case .requiredCapabilities:
            return project(snapshot.requiredCapabilities) {
                .map([
                    "extension_types": numbers($0.extensionTypes), "proposal_types": numbers($0.proposalTypes),
                    "credential_types": numbers($0.credentialTypes),
                ])
            }
        case .dictionary:
            return project(snapshot.dictionary) { entries in
                .map(
                    Dictionary(entries.map { (componentName($0.component), Outcome.string($0.data.hex)) }, uniquingKeysWith: { a, _ in a }))
            }
        case .lifecycle: return project(snapshot.lifecycle, Outcome.string)
        case .convergence: return project(snapshot.convergence, Outcome.string)
        case .localGates: return project(snapshot.localGates) { .list($0.map(Outcome.string)) }
        case .publications:
            return project(snapshot.publications) { publications in
                .list(
                    publications.map {
                        .map([
                            "event_id": .string($0.eventID), "pending_epoch": .string(String($0.pendingEpoch)),
                            "attempt_may_have_occurred": .bool($0.attemptMayHaveOccurred), "acknowledged": .bool($0.acknowledged),
                        ])
                    })
            }
        case .dispositions:
            return project(snapshot.dispositions) { .map(Dictionary($0.map { ($0.input, Outcome.string($0.disposition)) }) { a, _ in a }) }
        case .effects: return project(snapshot.effects) { .list($0.map(Outcome.string)) }
        }
    }

    /// A component id as a path segment: `0xf2ee`.
    static func componentName(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// What the members' snapshots of one group disagree on, one phrase per path
    /// (`snapshot leaves.1.signature_key: alice "…", bob "…"`), and the shared fields not compared
    /// because a member does not give them (`bob: exporter_commitment (reason)`). Each field is
    /// compared against the first member (in the given order) that gives it, so two members that
    /// give a field are compared on it whatever the others give.
    static func compare(_ members: [(label: String, snapshot: ProtocolSnapshot)]) -> (differences: [String], notCompared: [String]) {
        var differences: [String] = []
        var notCompared: [String] = []
        for field in ProtocolSnapshot.FieldName.allCases where field.isShared {
            var reference: (label: String, tree: Outcome)?
            for member in members {
                switch projection(member.snapshot, field) {
                case .unsupported(let reason):
                    notCompared.append("\(member.label): \(field.rawValue) (\(reason))")
                case .value(let tree):
                    guard let first = reference else {
                        reference = (member.label, tree)
                        continue
                    }
                    for difference in first.tree.differences(from: tree, path: field.rawValue) {
                        differences.append(
                            "snapshot \(difference.path): \(first.label) \(shortened(difference.expected)), "
                                + "\(member.label) \(shortened(difference.observed))")
                    }
                }
            }
        }
        return (differences, notCompared)
    }

    /// A long value cut to its ends, with its length, so that a diff line stays readable.
    static func shortened(_ text: String) -> String {
        guard text.count > 40 else { return text }
        return "\(text.prefix(17))…\(text.suffix(9)) (\(text.count) chars)"
    }
}

extension [UInt8] {
    fileprivate var hex: String { map { byte in String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16) }.joined() }
}
