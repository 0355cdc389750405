import EngineInterface
import ExternalProcessEngine
import Testing

/// `exact_state` replies come from another program: digests are decoded strictly.
@Suite struct ExactStateReplyTests {
    @Test func digestsTheDriverGivesAreKeptAndAbsentOnesAreNil() async throws {
        let digest = String(repeating: "Ab", count: 32)
        let (driver, engine) = try await StandInDriver.engine(
            answering: #"{"epoch":3,"ratchet_tree_digest":"\#(digest)","tree_hash":null}"#)
        let state = try await engine.exactState(of: MLSGroupID(hex: "00"))
        #expect(state.epoch == 3)
        #expect(state.ratchetTreeDigest == digest.lowercased())
        #expect(state.treeHash == nil && state.exporterCommitment == nil && state.groupContextHash == nil)
        await driver.shutdown()
    }

    @Test(arguments: [
        #"{"epoch":3,"ratchet_tree_digest":"abcd"}"#, #"{"epoch":3,"exporter_commitment":7}"#,
        #"{"ratchet_tree_digest":null}"#, #"{"epoch":-1}"#,
    ])
    func malformedDigestsAreMalformedResponses(_ result: String) async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: result)
        await #expect(throws: EngineError(.malformedResponse, "")) { try await engine.exactState(of: MLSGroupID(hex: "00")) }
        await driver.shutdown()
    }
}
