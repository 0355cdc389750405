import EngineInterface
import ExternalProcessEngine
import Nostr
import Testing

/// `process_message` replies come from another program. A `commit` naming the commit the engine
/// left for a competitor the group built on (`replaced`, docs/driver-protocol.md) is told apart
/// from a plain one, and a `replaced` that is no event id is a malformed response, not a commit.
@Suite struct ProcessingResultReplyTests {
    static let replaced = String(repeating: "0a", count: 32)

    /// Any kind-445 event: the stand-in driver answers without reading it.
    static func event() throws -> Event {
        let keypair = Keypair(secretKey: try SecretKey(bytes: [UInt8](repeating: 7, count: 32)))
        var random = SystemRandomNumberGenerator()
        return try UnsignedEvent(pubkey: keypair.publicKey, createdAt: 1_700_000_000, kind: 445, tags: [["h", "00"]], content: "x")
            .signed(with: keypair, using: &random)
    }

    @Test func aCommitWithReplacedIsARivalCommit() async throws {
        let (driver, engine) = try await StandInDriver.engine(
            answering: #"{"type":"commit","mls_group_id":"00","replaced":"\#(Self.replaced)"}"#)
        let result = try await engine.processMessage(try Self.event())
        #expect(result == .rivalCommit(MLSGroupID(hex: "00"), replaced: try EventID(hex: Self.replaced)))
        await driver.shutdown()
    }

    @Test func aCommitWithoutReplacedIsAPlainCommit() async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: #"{"type":"commit","mls_group_id":"00"}"#)
        #expect(try await engine.processMessage(try Self.event()) == .commit(MLSGroupID(hex: "00")))
        await driver.shutdown()
    }

    @Test(arguments: [#""abcd""#, "7", "null"])
    func aMalformedReplacedIsAMalformedResponse(_ replaced: String) async throws {
        let (driver, engine) = try await StandInDriver.engine(
            answering: #"{"type":"commit","mls_group_id":"00","replaced":\#(replaced)}"#)
        await #expect(throws: EngineError(.malformedResponse, "")) { try await engine.processMessage(try Self.event()) }
        await driver.shutdown()
    }
}
