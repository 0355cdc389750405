import EngineInterface
import ExternalProcessEngine
import Nostr
import Testing

// Event ids for the replies below (file scope: test arguments are built outside any instance).
private let replacedHex = String(repeating: "0a", count: 32)
private let competitorHex = String(repeating: "0b", count: 32)

/// `process_message` replies come from another program. A `commit` naming the commit the engine
/// left for a competitor the group built on (`replaced` and `competitor`, docs/driver-protocol.md)
/// is told apart from a plain one, and one whose ids are missing or no event ids is a malformed
/// response, not a commit.
@Suite struct ProcessingResultReplyTests {
    /// Any kind-445 event: the stand-in driver answers without reading it.
    static func event() throws -> Event {
        let keypair = Keypair(secretKey: try SecretKey(bytes: [UInt8](repeating: 7, count: 32)))
        var random = SystemRandomNumberGenerator()
        return try UnsignedEvent(pubkey: keypair.publicKey, createdAt: 1_700_000_000, kind: 445, tags: [["h", "00"]], content: "x")
            .signed(with: keypair, using: &random)
    }

    @Test func aCommitWithReplacedIsARivalCommit() async throws {
        let (driver, engine) = try await StandInDriver.engine(
            answering: #"{"type":"commit","mls_group_id":"00","replaced":"\#(replacedHex)","competitor":"\#(competitorHex)"}"#)
        let result = try await engine.processMessage(try Self.event())
        #expect(
            result
                == .rivalCommit(
                    MLSGroupID(hex: "00"), replaced: try EventID(hex: replacedHex), competitor: try EventID(hex: competitorHex)))
        await driver.shutdown()
    }

    @Test func aCommitWithoutReplacedIsAPlainCommit() async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: #"{"type":"commit","mls_group_id":"00"}"#)
        #expect(try await engine.processMessage(try Self.event()) == .commit(MLSGroupID(hex: "00")))
        await driver.shutdown()
    }

    @Test(arguments: [
        #""replaced":"abcd","competitor":"\#(competitorHex)""#,
        #""replaced":7,"competitor":"\#(competitorHex)""#,
        #""replaced":null,"competitor":"\#(competitorHex)""#,
        #""replaced":"\#(replacedHex)","competitor":"xyz""#,
        #""replaced":"\#(replacedHex)""#,
    ])
    func aMalformedRivalCommitIsAMalformedResponse(_ fields: String) async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: #"{"type":"commit","mls_group_id":"00",\#(fields)}"#)
        await #expect(throws: EngineError(.malformedResponse, "")) { try await engine.processMessage(try Self.event()) }
        await driver.shutdown()
    }
}
