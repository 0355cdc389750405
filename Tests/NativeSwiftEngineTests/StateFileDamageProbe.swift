import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import Testing

/// A damaged state that loads is run: the operations on it answer with typed errors or values,
/// never a trap (the decoding test stops at loading; this one goes on).
@Suite struct StateFileDamageProbe {
    @Test func damagedStatesThatLoadCanBeOperatedOn() async throws {
        let directory = try StateDirectory()
        let bytes = try await StateRecipe.small.bytes()
        var operated = 0
        // A sample of offsets keeps the probe to seconds (every 4th was run once, for issue 20, with no
        // finding); the decoding test covers every offset up to loading.
        for offset in stride(from: 10, to: bytes.count, by: 61) {
            var damaged = bytes
            damaged[offset] ^= 0xFF
            guard (try? NativeSwiftEngine.reencodedState(damaged)) != nil else { continue }
            let path = directory.path + "/\(offset).state"
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let engine = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: UInt64(offset)))
            var generator = TestGenerator(seed: UInt64(offset))
            let me = Keypair.generate(using: &generator).publicKey
            for group in try await engine.groups() {
                let id = group.mlsGroupID
                _ = try? await engine.exactState(of: id)
                if let event = try? await engine.createMessage(in: id, sender: me, kind: .chatMessage, content: "x", tags: []) {
                    _ = try? await engine.processMessage(event)
                }
                if (try? await engine.selfUpdate(in: id)) != nil { try? await engine.mergePendingCommit(in: id) }
            }
            _ = try? await engine.createKeyPackage(for: me, relays: MemberBench.relays, protected: false)
            operated += 1
        }
        #expect(operated > 0)
    }
}
