import ConformanceTestSupport
import Foundation
import ScenarioModel
import Testing

@testable import ScenarioRunner

/// Issue 34's seed behaviours on our engine: the route (002), the owner's deleted chat (001 §9),
/// channel owners and their leave rules (003) and a lost race ending in its typed error. Each
/// committed scenario passes, and each twin, the same run expecting what the rule replaced,
/// fails: the field is observed, not assumed.
@Suite struct SeedBehaviourTests {
    static func verdict(of file: String, replacing old: String? = nil, with new: String = "") async throws -> Verdict {
        var text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
        if let old {
            #expect(text.contains(old), "the twin edits nothing in \(file)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        let scenario = try Scenario(yaml: text, file: file)
        let execution = await swiftOnlyExecutor().execute(scenario, seed: 1, selection: .swift, reproduce: file)
        return execution.run.verdict
    }

    static let route = "scenarios/group-lifecycle/route-after-create-and-leave.yaml"
    static let deleted = "scenarios/roles/owner-deleted-chat-removed.yaml"
    static let owners = "scenarios/channel-relay-joins/co-owner-leaves.yaml"
    static let race = "scenarios/concurrent-commits/demoted-admin-loses-race.yaml"

    @Test(arguments: [route, deleted, owners, race])
    func theScenarioPasses(_ file: String) async throws {
        #expect(try await Self.verdict(of: file) == .pass)
    }

    /// After leaving, bob is not still routed to the chat.
    @Test func routeTwin() async throws {
        let old = "  - leave: { by: bob }\n  - check:\n      members:\n        bob: { route: chat-list }"
        let new = "  - leave: { by: bob }\n  - check:\n      members:\n        bob: { route: \"chat: Team\" }"
        #expect(try await Self.verdict(of: Self.route, replacing: old, with: new) == .fail)
    }

    /// The owner who deleted a group does not keep it in its list.
    @Test func deletedChatTwin() async throws {
        let old = "      chats: [{ name: Stay, members: [alice, bob] }]"
        let new = "      chats: [{ name: Gone, deleted: kept }, { name: Stay, members: [alice, bob] }]"
        #expect(try await Self.verdict(of: Self.deleted, replacing: old, with: new) == .fail)
    }

    /// After bob left, the subscriber does not list him as an owner any more.
    @Test func ownersTwin() async throws {
        let old = "      channels: [{ name: News, owners: [alice], messages"
        let new = "      channels: [{ name: News, owners: [alice, bob], messages"
        #expect(try await Self.verdict(of: Self.owners, replacing: old, with: new) == .fail)
    }

    /// The last owner's refused leave is an error, not silence.
    @Test func lastOwnerTwin() async throws {
        #expect(try await Self.verdict(of: Self.owners, replacing: "errors: [core.lastChannelOwner]", with: "errors: []") == .fail)
    }

    /// The loser's action ends in the error, not in silence.
    @Test func raceTwin() async throws {
        #expect(try await Self.verdict(of: Self.race, replacing: "errors: [core.raceLostNotRedone]", with: "errors: []") == .fail)
    }
}
