import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import ScenarioModel
import ScenarioRunner
import Testing

/// Twins of what the group-image scenarios rely on: `converged` compares the image each member's
/// group data names, and a member's `image` status follows what its engine says of the blob.
@Suite struct GroupImageTwinTests {
    static var setImage: String {
        get throws {
            let png = try Data(contentsOf: Vectors.repositoryRoot.appendingPathComponent("scenarios/assets/avatar.png"))
            return RunnerTwinTests.group + """
                  - set-image: { by: alice, image: \(png.base64EncodedString()), mime-type: image/png }
                  - deliver: all
                expect:
                  converged: true
                  members:
                    bob: { chats: [{ name: Team, image: verified }] }

                """
        }
    }

    static func engines(carol wrap: @escaping @Sendable (any ProtocolEngine) -> any ProtocolEngine) -> EngineSet {
        EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    let engine = NativeSwiftEngine(generator: context.generator, clock: context.clock)
                    return context.label == "carol" ? wrap(engine) : engine
                }, deterministic: true)
        ])
    }

    @Test func theHonestRunPasses() async throws {
        let run = try await RunnerTwinTests.execute(try Self.setImage)
        #expect(run.checks.allSatisfy { $0.verdict != .fail }, "\(run.checks.filter { $0.verdict == .fail })")
    }

    /// carol's engine reads no image in the group data: layer 1 of `converged` names the image.
    @Test func convergedCatchesAMemberWhoseGroupDataNamesNoImage() async throws {
        let run = try await RunnerTwinTests.execute(try Self.setImage, engines: Self.engines { ImageBlindEngine(base: $0) })
        let check = try #require(run.checks.first { $0.check == "converged" })
        #expect(check.verdict == .fail)
        #expect(check.observed?.contains(", image ") == true, "\(check.observed ?? "")")
    }

    /// carol's engine opens no blob: her chat says so, while bob's still shows the picture verified.
    @Test func aMemberWhoseEngineCannotOpenTheBlobDoesNotShowIt() async throws {
        let yaml = try Self.setImage.replacingOccurrences(of: "bob: { chats", with: "carol: { chats")
        let run = try await RunnerTwinTests.execute(yaml, engines: Self.engines { UnopenableImageEngine(base: $0) })
        let check = try #require(run.checks.first { $0.check == "member carol: chats" })
        #expect(check.verdict == .fail)
        #expect(check.observed?.contains("undecryptable") == true, "\(check.observed ?? "")")
    }
}

/// Reports every group without its image, as an engine ignoring MIP-01's image fields would.
struct ImageBlindEngine: ForwardingEngine {
    let base: any ProtocolEngine
    func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot { Self.blind(try await base.group(group)) }
    func groups() async throws(EngineError) -> [GroupSnapshot] { try await base.groups().map(Self.blind) }

    static func blind(_ group: GroupSnapshot) -> GroupSnapshot {
        GroupSnapshot(
            mlsGroupID: group.mlsGroupID, nostrGroupID: group.nostrGroupID, name: group.name, description: group.description,
            admins: group.admins, epoch: group.epoch, state: group.state)
    }
}

/// Opens no image blob (as if every key were wrong).
struct UnopenableImageEngine: ForwardingEngine {
    let base: any ProtocolEngine
    func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8] {
        throw EngineError(.imageUndecryptable, "twin: no key opens it")
    }
}
