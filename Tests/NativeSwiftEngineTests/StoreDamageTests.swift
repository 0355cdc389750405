import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import Nostr
import TLSCodec
import Testing

@testable import NativeSwiftEngine

/// Restart-matrix boundaries 7 and 8 in the engine: a crash that damages one group's record costs
/// that group alone at the next start, and the superseded commits survive the state file.
@Suite struct StoreDamageTests {
    /// A crash switch that tripped with `damage`, as the world leaves it before the restart.
    static func tripped(_ damage: StoreDamage) -> CrashSwitch {
        let crash = CrashSwitch()
        crash.arm(.engineUnsaved, damage: damage)
        _ = crash.reached(.engineUnsaved)
        _ = crash.takeTrip()
        return crash
    }

    @Test(arguments: StoreDamage.Kind.allCases)
    func aDamagingCrashCostsThatGroupAtTheNextStart(_ kind: StoreDamage.Kind) async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/member.state"
        let (_, damagedID, healthyID) = try await StateFileIsolationTests.twoGroups(at: path)
        let crash = Self.tripped(StoreDamage(group: damagedID, kind: kind))
        let restarted = try NativeSwiftEngine(
            generator: ContinuingStream(seed: 3033).handle, clock: { MemberBench.fixedTime }, stateFile: path, crashSwitch: crash)
        await #expect {
            _ = try await restarted.group(damagedID)
        } throws: { error in
            (error as? EngineError)?.code == (kind == .corrupt ? .groupUnrecoverable : .unknownGroup)
        }
        #expect(try await restarted.groups().map(\.mlsGroupID) == [healthyID])
        // Taken once: the start after this one meets the file as it is, not damaged again.
        #expect(crash.takeDamage() == nil)
    }

    @Test func aDamageOfAGroupTheFileDoesNotHoldIsAnError() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/member.state"
        _ = try await StateFileIsolationTests.twoGroups(at: path)
        let crash = Self.tripped(StoreDamage(group: MLSGroupID(hex: String(repeating: "ab", count: 32)), kind: .missing))
        #expect(throws: EngineError(.unknownGroup, "")) {
            _ = try NativeSwiftEngine(
                generator: ContinuingStream(seed: 3034).handle, clock: { MemberBench.fixedTime }, stateFile: path, crashSwitch: crash)
        }
    }

    /// The superseded commits are written after the record's own events only when there is one,
    /// read back, and an empty list written out is refused (one state, one encoding).
    @Test func supersededCommitsSurviveTheStateFile() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/member.state"
        let (engine, id, _) = try await StateFileIsolationTests.twoGroups(at: path)
        var record = try #require(await engine.groups[id])
        var plain = TLSWriter()
        record.encodeState(to: &plain)
        let loser = try EventID(bytes: Array(repeating: 7, count: 32))
        record.superseded = [loser]
        var writer = TLSWriter()
        record.encodeState(to: &writer)
        #expect(writer.bytes.count == plain.bytes.count + 1 + 32, "one list of one id after the rest")
        var reader = TLSReader(writer.bytes)
        #expect(try GroupRecord(state: &reader, wrapped: true).superseded == [loser])
        var empty = plain.bytes
        empty.append(0)
        var emptyReader = TLSReader(empty)
        #expect(throws: TLSCodecError.self) { _ = try GroupRecord(state: &emptyReader, wrapped: true) }
    }
}
