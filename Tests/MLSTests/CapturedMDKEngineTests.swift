// `mdk_engine` (adopted-commits.json): a live MDK v0.11.0 group's kind-445 events, replayed by the
// observer at the MLS level. The Nostr layer is peeled here by a few lines of test code (the
// transport is not MLS's): an event's content is base64 of a 12-byte nonce followed by
// ChaCha20-Poly1305 ciphertext under MLS-Exporter("marmot", "group-event", 32) of the epoch the
// message belongs to, with empty associated data (Marmot transports/nostr.md).
import ConformanceTestSupport
import Crypto
import Foundation
import MLS
import TLSCodec
import Testing

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

struct CapturedVerdict: Decodable {
    let epoch: UInt64
    let name: String
}

struct CapturedForks: Decodable {
    let observer_key_package_mls_message: Hex
    let observer_private: CapturedKeys
    let welcome_rumor_json: String
    let steps: [CapturedStep]
    let verdicts: [String: CapturedVerdict]
}

struct CapturedForksFile: Decodable {
    let forks: CapturedForks
}

/// `convergence-forks.json`: four MDK engines race commits. Which branch wins is Marmot's rule
/// (above MLS); what MLS must show is that every branch is MLS-valid: the observer keeps every
/// state it reaches, each event opens under exactly one of them (the outer key is the exporter of
/// the state the event was sent from), and each commit applies on that state, forking it.
@Suite struct CapturedForkTests {
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test func everyBranchApplies() throws {
        let forks = try Vectors.decode(CapturedForksFile.self, from: "mdk-0.11/convergence-forks.json").forks
        #expect(forks.steps.count == 12)
        let rumor = try JSONDecoder().decode(CapturedEvent.self, from: Data(forks.welcome_rumor_json.utf8))
        let welcomeBytes = try #require(Data(base64Encoded: rumor.content), "kind-444 content is base64")
        var states = [
            try Captured.join(
                Array(welcomeBytes), keyPackage: forks.observer_key_package_mls_message.bytes, keys: forks.observer_private)
        ]
        var commits = 0
        var applications = 0
        for step in forks.steps {
            let candidates = states.indices.compactMap { index in
                (try? GroupEventLayer.open(step.event_json, with: states[index])).map { (index, $0) }
            }
            #expect(candidates.count == 1, "forks.\(step.name) opens under \(candidates.count) known states")
            guard let (index, message) = candidates.first else { continue }
            var next = states[index]
            let received: ReceivedMessage
            do {
                received = try next.process(message)
            } catch {
                Issue.record("forks.\(step.name) (\(step.kind) by \(step.by)): \(error)")
                continue
            }
            #expect(next.epoch == step.epoch_after, "forks.\(step.name): epoch")
            switch received {
            case .commit:
                states.append(next)
                commits += 1
            case .application:
                states[index] = next
                applications += 1
            case .proposal:
                states[index] = next
            }
        }
        #expect(commits == 8 && applications == 4)
        // The branch each verdict names is among the states MLS reached.
        for (verdict, expected) in forks.verdicts.sorted(by: { $0.key < $1.key }) {
            let branches = states.filter { $0.epoch == expected.epoch }
            let named = try branches.filter { state in
                let profile = try state.context.extensions.appDataDictionary()?[0x8001] ?? []
                return Self.contains(profile, Array(expected.name.utf8))
            }
            #expect(!named.isEmpty, "verdict \(verdict): no epoch-\(expected.epoch) state named \(expected.name)")
            print(
                "captured forks verdict \(verdict): \(branches.count) state(s) at epoch \(expected.epoch),",
                "\(named.count) named \"\(expected.name)\"")
        }
        let epochs = Dictionary(grouping: states, by: \.epoch).mapValues(\.count).sorted { $0.key < $1.key }
        print("captured forks: \(commits) commits and \(applications) application messages; states per epoch \(epochs)")
    }
}
