import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Testing

/// What durable state costs (docs/engine-state-format.md, "Cost"): the size of a member's state file
/// and the time to encode, write and load it, for a 10- and a 50-member group in steady state. Printed, not
/// asserted: the figures depend on the machine and the build (`swift test` builds for debugging).
@Suite struct StateFileBench {
    @Test(arguments: [10, 50]) func stateFileCost(members: Int) async throws {
        let directory = try StateDirectory()
        var bench = MemberBench(seed: 9)
        let creator = bench.swiftMember("creator")
        var invitees: [Member] = []
        for index in 1..<members { invitees.append(bench.swiftMember("m\(index)")) }
        let group = try await bench.createGroup(by: creator, inviting: invitees, name: "Scale", admins: [creator])
        try await MemberBench.exchange("hello", from: invitees[0], to: [creator], in: group)
        // Steady state: enough commits of its own that the creator holds the full lookback of past
        // epochs and a rollback point (which carries its own copy of the past epochs).
        for _ in 0..<6 {
            _ = try await creator.engine.selfUpdate(in: group)
            try await creator.engine.mergePendingCommit(in: group)
        }
        let engine = try #require(creator.engine as? NativeSwiftEngine)

        let rounds = 5
        let clock = ContinuousClock()
        var bytes: [UInt8] = []
        let encode = try await clock.measure { for _ in 0..<rounds { bytes = try await engine.stateBytes() } } / rounds
        let path = directory.path + "/creator.state"
        let write =
            try clock.measure {
                for _ in 0..<rounds { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) }
            } / rounds
        let load =
            try clock.measure {
                for _ in 0..<rounds { _ = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 1)) }
            } / rounds
        print(
            "state file, \(members) members (the creator's after 6 commits: 5 past epochs, a rollback point): \(bytes.count) B; "
                + "encode \(Self.ms(encode)), atomic write \(Self.ms(write)), load \(Self.ms(load))")
        #expect(try NativeSwiftEngine.reencodedState(bytes) == bytes)
    }

    static func ms(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.2f ms", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }
}
