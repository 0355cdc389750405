import EngineInterface
import HexEncoding
import Nostr

// The `protocol_snapshot` result (docs/driver-protocol.md): one key per snapshot field, each
// `{"value": …}` or `{"unsupported": "<reason>"}`. Every key must be there: a driver that leaves a
// field out gives a malformed reply, never a field taken as equal.

extension Records {
    package static func protocolSnapshot(_ snapshot: ProtocolSnapshot) -> [String: JSONValue] {
        func field<T>(_ field: SnapshotField<T>, _ encode: (T) -> JSONValue) -> JSONValue {
            switch field {
            case .value(let value): .object(["value": encode(value)])
            case .unsupported(let reason): .object(["unsupported": .string(reason)])
            }
        }
        func numbers(_ values: [UInt16]) -> JSONValue { .array(values.map { JSONValue($0) }) }
        typealias Name = ProtocolSnapshot.FieldName
        return [
            Name.groupID.rawValue: field(snapshot.groupID, JSONValue.string),
            Name.epoch.rawValue: field(snapshot.epoch) { JSONValue($0) },
            Name.groupContextHash.rawValue: field(snapshot.groupContextHash, JSONValue.string),
            Name.exporterCommitment.rawValue: field(snapshot.exporterCommitment, JSONValue.string),
            Name.leaves.rawValue: field(snapshot.leaves) { leaves in
                .array(
                    leaves.map { leaf in
                        let caps = leaf.capabilities
                        return .object([
                            "index": JSONValue(leaf.index), "identity": .string(leaf.identity), "signature_key": .string(leaf.signatureKey),
                            "capabilities": .object([
                                "versions": numbers(caps.versions), "cipher_suites": numbers(caps.cipherSuites),
                                "extensions": numbers(caps.extensions), "proposals": numbers(caps.proposals),
                                "credentials": numbers(caps.credentials), "components": caps.components.map(numbers) ?? .null,
                            ]),
                        ])
                    })
            },
            Name.requiredCapabilities.rawValue: field(snapshot.requiredCapabilities) { required in
                .object([
                    "extension_types": numbers(required.extensionTypes), "proposal_types": numbers(required.proposalTypes),
                    "credential_types": numbers(required.credentialTypes),
                ])
            },
            Name.dictionary.rawValue: field(snapshot.dictionary) { entries in
                .array(entries.map { .object(["component": JSONValue($0.component), "data": .string($0.data.hexString)]) })
            },
            Name.lifecycle.rawValue: field(snapshot.lifecycle, JSONValue.string),
            Name.convergence.rawValue: field(snapshot.convergence, JSONValue.string),
            Name.localGates.rawValue: field(snapshot.localGates) { .array($0.map(JSONValue.string)) },
            Name.publications.rawValue: field(snapshot.publications) { publications in
                .array(
                    publications.map {
                        .object([
                            "event_id": .string($0.eventID), "pending_epoch": JSONValue($0.pendingEpoch),
                            "attempt_may_have_occurred": .bool($0.attemptMayHaveOccurred), "acknowledged": .bool($0.acknowledged),
                        ])
                    })
            },
            Name.dispositions.rawValue: field(snapshot.dispositions) { dispositions in
                .array(dispositions.map { .object(["input": .string($0.input), "disposition": .string($0.disposition)]) })
            },
            Name.effects.rawValue: field(snapshot.effects) { .array($0.map(JSONValue.string)) },
        ]
    }
}

extension DriverReply {
    /// `protocol_snapshot` result, decoded strictly: hex where hex is due, digests of 32 bytes,
    /// code points within 16 bits, leaves in ascending index order, dictionary entries in strictly
    /// ascending component order.
    package func protocolSnapshot() throws(EngineError) -> ProtocolSnapshot {
        typealias Name = ProtocolSnapshot.FieldName
        func field<T>(_ name: Name, _ decode: (DriverReply) throws(EngineError) -> T) throws(EngineError) -> SnapshotField<T> {
            let wrapper = try object(name.rawValue)
            switch (wrapper.fields["value"], wrapper.fields["unsupported"]) {
            case (.some, nil): return .value(try decode(wrapper))
            case (nil, .some): return .unsupported(reason: try wrapper.string("unsupported"))
            default: throw malformed(name.rawValue, "must hold exactly one of `value` and `unsupported`")
            }
        }
        func digest(_ reply: DriverReply) throws(EngineError) -> String {
            let text = try reply.string("value")
            guard text.count == 64, text.allSatisfy(\.isHexDigit) else { throw reply.malformed("value", "is not 32 bytes of hex") }
            return text.lowercased()
        }
        return ProtocolSnapshot(
            groupID: try field(.groupID) { reply throws(EngineError) in try reply.hex("value").hexString },
            epoch: try field(.epoch) { reply throws(EngineError) in try reply.uint64("value") },
            groupContextHash: try field(.groupContextHash, digest),
            exporterCommitment: try field(.exporterCommitment, digest),
            leaves: try field(.leaves) { reply throws(EngineError) in
                let leaves = try reply.objects("value").map { leaf throws(EngineError) in try leaf.snapshotLeaf() }
                guard zip(leaves, leaves.dropFirst()).allSatisfy({ $0.index < $1.index }) else {
                    throw reply.malformed("leaves", "are not in strictly ascending leaf-index order")
                }
                return leaves
            },
            requiredCapabilities: try field(.requiredCapabilities) { reply throws(EngineError) in
                let value = try reply.object("value")
                return SnapshotRequiredCapabilities(
                    extensionTypes: try value.codePoints("extension_types"), proposalTypes: try value.codePoints("proposal_types"),
                    credentialTypes: try value.codePoints("credential_types"))
            },
            dictionary: try field(.dictionary) { reply throws(EngineError) in
                let entries = try reply.objects("value").map { entry throws(EngineError) in
                    SnapshotDictionaryEntry(component: try entry.codePoint("component"), data: try entry.hex("data"))
                }
                guard zip(entries, entries.dropFirst()).allSatisfy({ $0.component < $1.component }) else {
                    throw reply.malformed("app_data_dictionary", "entries are not in strictly ascending component order")
                }
                return entries
            },
            lifecycle: try field(.lifecycle) { reply throws(EngineError) in try reply.string("value") },
            convergence: try field(.convergence) { reply throws(EngineError) in try reply.string("value") },
            localGates: try field(.localGates) { reply throws(EngineError) in try reply.strings("value") },
            publications: try field(.publications) { reply throws(EngineError) in
                try reply.objects("value").map { item throws(EngineError) in
                    SnapshotPublication(
                        eventID: try item.eventID("event_id").hex, pendingEpoch: try item.uint64("pending_epoch"),
                        attemptMayHaveOccurred: try item.flag("attempt_may_have_occurred"), acknowledged: try item.flag("acknowledged"))
                }
            },
            dispositions: try field(.dispositions) { reply throws(EngineError) in
                try reply.objects("value").map { item throws(EngineError) in
                    SnapshotDisposition(input: try item.string("input"), disposition: try item.string("disposition"))
                }
            },
            effects: try field(.effects) { reply throws(EngineError) in try reply.strings("value") })
    }

    func snapshotLeaf() throws(EngineError) -> SnapshotLeaf {
        let caps = try object("capabilities")
        let components: [UInt16]? = caps.fields["components"] == .null ? nil : try caps.codePoints("components")
        return SnapshotLeaf(
            index: try uint32("index"), identity: try hex("identity").hexString, signatureKey: try hex("signature_key").hexString,
            capabilities: SnapshotCapabilities(
                versions: try caps.codePoints("versions"), cipherSuites: try caps.codePoints("cipher_suites"),
                extensions: try caps.codePoints("extensions"), proposals: try caps.codePoints("proposals"),
                credentials: try caps.codePoints("credentials"), components: components))
    }

    func uint32(_ key: String) throws(EngineError) -> UInt32 {
        guard let value = UInt32(exactly: try uint64(key)) else { throw malformed(key, "does not fit 32 bits") }
        return value
    }

    func codePoint(_ key: String) throws(EngineError) -> UInt16 {
        guard let value = UInt16(exactly: try uint64(key)) else { throw malformed(key, "does not fit 16 bits") }
        return value
    }

    func codePoints(_ key: String) throws(EngineError) -> [UInt16] {
        var out: [UInt16] = []
        for item in try array(key) {
            guard let number = item.uint64, let value = UInt16(exactly: number) else { throw malformed(key, "holds a non-16-bit value") }
            out.append(value)
        }
        return out
    }

    func flag(_ key: String) throws(EngineError) -> Bool {
        guard let value = try value(key).bool else { throw malformed(key, "is not a boolean") }
        return value
    }
}
