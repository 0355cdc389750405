// The compatibility kit used as a Swift engine's own test suite would use it, against our engine:
// the families run in process through the kit pass, reproduce the stored outcome vectors and the
// fingerprints pinned for `--engine swift`; and the twins show the kit cannot pass an engine that
// does not start, nor a scenario that needs an engine it lacks.
import EngineInterface
import Foundation
import MarmotConformanceKit
import NativeSwiftEngine
import Testing

@Suite struct ConformanceKitTests {
    /// This checkout (the kit's scenarios, vectors and ledger).
    static func checkout(from file: String = #filePath) throws -> URL {
        var url = URL(fileURLWithPath: file).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("known-defects.yaml").path) { return url }
            url.deleteLastPathComponent()
        }
        throw KitError(.badPath, "no checkout above \(file)")
    }

    static func ourEngine(named name: String = "swift") throws -> ConformanceKit {
        var kit = ConformanceKit(root: try checkout(), engine: name, version: "0.1") { member in
            NativeSwiftEngine(generator: member.random, clock: member.clock)
        }
        kit.capsules = FileManager.default.temporaryDirectory.appendingPathComponent("kit-capsules-\(name)")
        return kit
    }

    @Test func ourEngineThroughTheKitPassesFamiliesWithTheirVectorsAndPinnedFingerprints() async throws {
        let results = try await Self.ourEngine().run(["scenarios/group-lifecycle", "scenarios/mip02-timing", "scenarios/delivery-faults"])
        #expect(results.count == 12, "\(results.map(\.file))")  // 4 + 5 + 3 scenarios
        for result in results {
            #expect(result.verdict == .pass, "\(result)")
            // The kit is the CLI's runner: the same outcome vector and the same trace as `--engine swift`.
            #expect(result.checks.contains { $0.name.hasPrefix("stored vector ") && $0.verdict == .pass }, "\(result)")
            #expect(result.checks.contains { $0.name == "stored trace fingerprint" && $0.verdict == .pass }, "\(result)")
            #expect(result.fingerprint != nil)
        }
    }

    /// Twin: an engine that cannot start is an error, never a pass or a skip.
    @Test func anEngineThatDoesNotStartIsAnError() async throws {
        let kit = ConformanceKit(root: try Self.checkout(), engine: "broken", version: "0") { member in
            throw KitError(.badOption, "engine for \(member.label) refuses to start")
        }
        let results = try await kit.run(["scenarios/group-lifecycle"])
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0.verdict == .error && !$0.passed })
        #expect(results.first?.checks.contains { $0.name == "members' engines start" && $0.verdict == .error } == true)
    }

    /// A member pinned to an engine the kit does not have (the hostile scenarios' attacker runs on
    /// ours): unsupported, and said why; never run on the candidate instead.
    @Test func aMemberPinnedToAnotherEngineIsUnsupported() async throws {
        let results = try await Self.ourEngine(named: "candidate").run(["scenarios/hostile/backdated-commit.yaml"])
        #expect(results.map(\.verdict) == [.unsupported])
        #expect(results.first?.notRun?.contains("'swift'") == true)
    }

    /// Under another name than `swift` nothing is pinned, so the fingerprint check is only noted
    /// (info), while the outcome vector still has to hold.
    @Test func anUnpinnedEngineIsStillJudgedByTheOutcomeVector() async throws {
        let results = try await Self.ourEngine(named: "candidate").run(["scenarios/group-lifecycle/four-members.yaml"])
        #expect(results.count == 1)
        let checks = results.first?.checks ?? []
        #expect(checks.contains { $0.name.hasPrefix("stored vector ") && $0.verdict == .pass })
        #expect(checks.contains { $0.name == "stored trace fingerprint" && $0.verdict == .info })
        #expect(results.first?.passed == true)
    }

    @Test func badPathsAndOptionsAreTypedErrors() async throws {
        let kit = try Self.ourEngine()
        await #expect(throws: KitError(.badPath, "")) { try await kit.run(["scenarios/no-such-family"]) }
        let claimed = ConformanceKit(root: try Self.checkout(), engine: "swift", version: "0.1", profile: "mdk-9") { member in
            NativeSwiftEngine(generator: member.random, clock: member.clock)
        }
        await #expect(throws: KitError(.badOption, "")) { try await claimed.run(["scenarios/group-lifecycle"]) }
    }
}
