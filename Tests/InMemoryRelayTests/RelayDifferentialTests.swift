import ConformanceTestSupport
import Foundation
import InMemoryRelay
import Nostr
import Testing

/// Our relay against rust-nostr's LocalRelay over loopback (nostr-relay-semantics.md §4), plus
/// in-process regressions for the places where the two were seen to differ.
@Suite struct RelayDifferentialTests {
    /// The CLI binary that `swift build --build-tests` leaves next to the test bundle.
    static var binary: URL {
        Vectors.repositoryRoot.appendingPathComponent(".build/debug/marmot-conform")
    }

    static var runnable: Bool {
        Peers.shouldRun && FileManager.default.isExecutableFile(atPath: binary.path)
    }

    // ≥ 2,000 generated steps across ≥ 20 seeds, compared after the §4.3 normalizations only.
    @Test(.enabled(if: runnable, "needs .venv (ci/setup) and .build/debug/marmot-conform (swift build --build-tests)"))
    func zeroDivergencesAgainstLocalRelay() async throws {
        let result = try await PythonVenv.run(
            script: "ci/interop/relay_diff.py",
            arguments: [
                "--ours", Self.binary.path, "--seeds", "20", "--steps", "100",
                "--fixtures", Vectors.repositoryRoot.appendingPathComponent("Tests/InMemoryRelayTests/Fixtures/relay-diff").path,
            ])
        let output = String(decoding: result.stdout, as: UTF8.self)
        let summary = output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(result.status == 0, "\(output)\n\(result.stderr)")
        #expect(summary == "relay-diff: 2000 steps across 20 seeds, 0 divergences", "\(output)")
    }

    // Seen against LocalRelay: it deletes an `e` target only when the target is not newer than
    // the request. NIP-09 sets no time bound on `e` tags, so the target goes.
    @Test func r15ETagDeletionRemovesATargetNewerThanTheRequest() throws {
        var harness = RelayHarness()
        let note = try harness.event(1, at: 5)
        _ = try harness.ok(note)
        _ = try harness.ok(try harness.event(.deletion, at: 0, tags: [["e", note.id.hex]]))
        #expect(try harness.query([Filter(kinds: [1])]).isEmpty)
    }

    // Seen against LocalRelay: a REQ whose ids are all found gets CLOSED, and when it replaced an
    // open subscription LocalRelay keeps serving the old filter. NIP-01: the new REQ replaces it.
    @Test func r8ReplacingWithAnAllFoundIDsFilterDropsTheOldFilter() throws {
        var harness = RelayHarness()
        let stored = try harness.event(.groupEvent, tags: [["h", "g"]])
        _ = try harness.ok(stored)
        _ = try harness.request("s", [Filter(kinds: [.groupEvent])], on: 2)
        let replaced = try harness.request("s", [Filter(ids: [stored.id.hex])], on: 2)
        #expect(RelayHarness.eventIDs(replaced) == [stored.id.hex])
        let live = try harness.publish(try harness.event(.groupEvent, at: 1, tags: [["h", "g"]]))
        #expect(RelayHarness.eventIDs(live, on: 2).isEmpty)
    }
}
