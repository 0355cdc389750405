import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import Nostr
import TLSCodec
import Testing

@testable import NativeSwiftEngine

/// Issue 30, N6: one damaged group record in the state file costs that group, not the member's
/// others. The damaged group answers `group_unrecoverable` with the reason; the others load and
/// run; the damaged bytes are written back as they were.
@Suite struct StateFileIsolationTests {
    /// A persisting engine holding two groups of its own (created alone), and their ids.
    static func twoGroups(at path: String) async throws -> (NativeSwiftEngine, MLSGroupID, MLSGroupID) {
        let engine = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 3030))
        var generator = TestGenerator(seed: 3030)
        let me = Keypair.generate(using: &generator).publicKey
        var ids: [MLSGroupID] = []
        for name in ["One", "Two"] {
            let created = try await engine.createGroup(
                GroupCreation(creator: me, keyPackages: [], name: name, description: "", relays: MemberBench.relays, admins: [me]))
            ids.append(created.group.mlsGroupID)
        }
        return (engine, ids[0], ids[1])
    }

    /// `id`'s record as the file stores it.
    /// Flips the first two bytes of group `id`'s record in the state file at `path`: its first bytes
    /// are the MLS group state's cipher suite, no longer one we know. Returns the damaged file and
    /// the record as it was.
    @discardableResult
    static func damageRecord(
        of id: MLSGroupID, saved engine: NativeSwiftEngine, at path: String
    ) async throws -> (file: [UInt8], record: [UInt8]) {
        let record = try await recordBytes(engine, id)
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let start = try #require(file.firstRange(of: record)?.lowerBound)
        file[start] ^= 0xFF
        file[start + 1] ^= 0xFF
        try Data(file).write(to: URL(fileURLWithPath: path))
        return (file, record)
    }

    static func recordBytes(_ engine: NativeSwiftEngine, _ id: MLSGroupID) async throws -> [UInt8] {
        let record = try #require(await engine.groups[id])
        var writer = TLSWriter()
        record.encodeState(to: &writer)
        return writer.bytes
    }

    @Test func oneDamagedGroupLeavesTheOtherRunning() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/member.state"
        let (engine, damagedID, healthyID) = try await Self.twoGroups(at: path)
        let (file, record) = try await Self.damageRecord(of: damagedID, saved: engine, at: path)

        let restarted = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 3031))
        await #expect {
            _ = try await restarted.group(damagedID)
        } throws: { error in
            (error as? EngineError)?.code == .groupUnrecoverable
        }
        #expect(try await restarted.group(healthyID).name == "Two")
        #expect(try await restarted.groups().map(\.mlsGroupID) == [healthyID])
        // The healthy group still works and is saved; the damaged bytes go back unchanged.
        _ = try await restarted.selfUpdate(in: healthyID)
        let rewritten = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(rewritten != file, "the operation was saved")
        var damagedRecord = record
        damagedRecord[0] ^= 0xFF
        damagedRecord[1] ^= 0xFF
        #expect(rewritten.firstRange(of: damagedRecord) != nil, "the damaged record is kept as it was")
    }

    @Test func aRecordOverThePerGroupCapIsUnrecoverableNotDecoded() throws {
        let cap = EngineStateFile.maximumGroupRecordSize
        let atCap = EngineState.groupRecord(MLSGroupID(hex: "00"), [UInt8](repeating: 0, count: cap))
        let overCap = EngineState.groupRecord(MLSGroupID(hex: "00"), [UInt8](repeating: 0, count: cap + 1))
        guard case .failure(let over) = overCap, case .failure(let at) = atCap else {
            Issue.record("zero bytes decoded as a group record")
            return
        }
        #expect(over.reason.contains("more than the cap"))
        #expect(!at.reason.contains("more than the cap"), "at the cap the record is decoded (and fails as bytes): \(at.reason)")
    }
}
