import EngineInterface
import ExternalProcessEngine
import Testing

/// `protocol_snapshot` replies come from another program: every field must be there, as exactly
/// one of `value` and `unsupported`, and values are decoded strictly.
@Suite struct ProtocolSnapshotReplyTests {
    static let digest = String(repeating: "ab", count: 32)
    static let leaf =
        #"{"index":1,"identity":"\#(digest)","signature_key":"0a0b","capabilities":{"versions":[1],"cipher_suites":[1,2570],"#
        + #""extensions":[10,62190],"proposals":[],"credentials":[1],"components":null}}"#

    /// A full reply, with `overrides` replacing whole fields.
    static func reply(_ overrides: [String: String] = [:]) -> String {
        let fields: [String: String] = [
            "mls_group_id": #"{"value":"0011"}"#, "epoch": #"{"value":3}"#, "group_context_hash": #"{"unsupported":"none here"}"#,
            "exporter_commitment": #"{"value":"\#(digest)"}"#, "leaves": #"{"value":[\#(leaf)]}"#,
            "required_capabilities": #"{"value":{"extension_types":[62190],"proposal_types":[],"credential_types":[]}}"#,
            "app_data_dictionary": #"{"value":[{"component":62190,"data":"00ff"}]}"#, "lifecycle": #"{"value":"active"}"#,
            "convergence": #"{"unsupported":"no pass"}"#, "local_gates": #"{"value":[]}"#,
            "pending_publications":
                #"{"value":[{"event_id":"\#(digest)","pending_epoch":4,"attempt_may_have_occurred":true,"acknowledged":false}]}"#,
            "input_dispositions": #"{"value":[{"input":"x","disposition":"processed"}]}"#, "effects": #"{"value":["message:1"]}"#,
        ].merging(overrides) { _, new in new }
        // "MISSING": the field is left out.
        return "{"
            + fields.filter { $0.value != "MISSING" }.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            + "}"
    }

    @Test func aFullReplyDecodesFieldByField() async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: Self.reply())
        let snapshot = try await engine.protocolSnapshot(of: MLSGroupID(hex: "0011"))
        #expect(snapshot.groupID == .value("0011") && snapshot.epoch == .value(3))
        #expect(snapshot.groupContextHash == .unsupported(reason: "none here"))
        #expect(snapshot.exporterCommitment == .value(Self.digest))
        #expect(
            snapshot.leaves
                == .value([
                    SnapshotLeaf(
                        index: 1, identity: Self.digest, signatureKey: "0a0b",
                        capabilities: SnapshotCapabilities(
                            versions: [1], cipherSuites: [1, 2570], extensions: [10, 62190], proposals: [], credentials: [1],
                            components: nil))
                ]))
        #expect(snapshot.dictionary == .value([SnapshotDictionaryEntry(component: 0xF2EE, data: [0x00, 0xFF])]))
        #expect(
            snapshot.publications
                == .value([SnapshotPublication(eventID: Self.digest, pendingEpoch: 4, attemptMayHaveOccurred: true, acknowledged: false)]))
        #expect(snapshot.effects == .value(["message:1"]))
        await driver.shutdown()
    }

    @Test(arguments: [
        // A field left out, a field with both or neither of value/unsupported.
        ["epoch": "MISSING"], ["epoch": #"{"value":3,"unsupported":"x"}"#], ["lifecycle": "{}"],
        // Digests of the wrong length, a code point beyond 16 bits, leaves or entries out of order.
        ["exporter_commitment": #"{"value":"abcd"}"#],
        ["required_capabilities": #"{"value":{"extension_types":[65536],"proposal_types":[],"credential_types":[]}}"#],
        ["leaves": #"{"value":[\#(leaf),\#(leaf)]}"#],
        ["app_data_dictionary": #"{"value":[{"component":2,"data":""},{"component":1,"data":""}]}"#],
        ["mls_group_id": #"{"value":"not hex"}"#], ["effects": #"{"value":[1]}"#],
    ])
    func malformedFieldsAreMalformedResponses(_ overrides: [String: String]) async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: Self.reply(overrides))
        await #expect(throws: EngineError(.malformedResponse, "")) { try await engine.protocolSnapshot(of: MLSGroupID(hex: "00")) }
        await driver.shutdown()
    }
}
