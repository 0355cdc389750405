// `mdk_engine` (adopted-commits.json): a live MDK v0.11.0 group's kind-445 events, replayed by the
// observer at the MLS level. The Nostr layer is peeled here by a few lines of test code (the
// transport is not MLS's): an event's content is base64 of a 12-byte nonce followed by
// ChaCha20-Poly1305 ciphertext under MLS-Exporter("marmot", "group-event", 32) of the epoch the
// message belongs to, with empty associated data (Marmot transports/nostr.md).
import ConformanceTestSupport
import Crypto
import Foundation
import MLS
import Testing
import TLSCodec

struct CapturedStep: Decodable {
    let name: String
    let kind: String
    let by: String
    let epoch_after: UInt64
    let event_json: String
}

struct CapturedEngineGroup: Decodable {
    let group_id: Hex
    let observer_key_package_mls_message: Hex
    let observer_private: CapturedKeys
    let welcome_rumor_json: String
    let steps: [CapturedStep]
}

struct CapturedEngineFile: Decodable {
    let mdk_engine: CapturedEngineGroup
}

/// The fields of a Nostr event the replay reads.
struct CapturedEvent: Decodable {
    let kind: Int
    let content: String
}

enum GroupEventLayer {
    /// The MLS message inside a kind-445 event, opened with `group`'s current epoch.
    static func open(_ eventJSON: String, with group: Group) throws -> MLSMessage {
        let event = try JSONDecoder().decode(CapturedEvent.self, from: Data(eventJSON.utf8))
        #expect(event.kind == 445)
        let payload = try #require(Data(base64Encoded: event.content), "kind-445 content is base64")
        #expect(payload.count > 12 + 16)
        let key = SymmetricKey(data: group.export(label: "marmot", context: Array("group-event".utf8), length: 32))
        let box = try ChaChaPoly.SealedBox(
            nonce: ChaChaPoly.Nonce(data: payload.prefix(12)), ciphertext: payload.dropFirst(12).dropLast(16),
            tag: payload.suffix(16))
        return try MLSMessage(tlsBytes: Array(try ChaChaPoly.open(box, using: key)))
    }
}

@Suite struct CapturedMDKEngineTests {
    @Test func replayAsObserver() throws {
        let captured = try Vectors.decode(CapturedEngineFile.self, from: "mdk-0.11/adopted-commits.json").mdk_engine
        #expect(captured.steps.count == 18)
        let rumor = try JSONDecoder().decode(CapturedEvent.self, from: Data(captured.welcome_rumor_json.utf8))
        #expect(rumor.kind == 444)
        let welcomeBytes = try #require(Data(base64Encoded: rumor.content), "kind-444 content is base64")
        var group = try Captured.join(
            Array(welcomeBytes), keyPackage: captured.observer_key_package_mls_message.bytes, keys: captured.observer_private)
        #expect(group.groupID == captured.group_id.bytes)

        var counts: [String: Int] = [:]
        var texts: [String] = []
        for step in captured.steps {
            let message = try GroupEventLayer.open(step.event_json, with: group)
            let received: ReceivedMessage
            do {
                received = try group.process(message)
            } catch {
                Issue.record("mdk_engine.\(step.name) (\(step.kind) by \(step.by)): \(error)")
                break
            }
            switch (received, step.kind) {
            case (.application(let data, _), "application"):
                texts.append(String(decoding: data.prefix(60), as: UTF8.self))
            case (.commit, "commit"), (.proposal, "proposal"): break
            default: Issue.record("mdk_engine.\(step.name): \(step.kind) processed as \(received)")
            }
            #expect(group.epoch == step.epoch_after, "mdk_engine.\(step.name): epoch")
            counts[step.kind, default: 0] += 1
        }
        #expect(counts == ["commit": 8, "proposal": 1, "application": 9])
        print("captured mdk_engine: observer replayed \(counts) to epoch \(group.epoch), \(group.tree.occupiedLeaves.count) members")

        // Twin: an event opened with the wrong epoch's key does not decrypt.
        #expect(throws: (any Error).self) { _ = try GroupEventLayer.open(captured.steps[1].event_json, with: group) }
    }
}
