import Foundation
import FuzzTargets
import Testing

/// The committed corpora: every target has seeds, every seed and every saved crash input runs
/// through its decoder (a crash found by `ci/fuzz` is kept in fuzz/crashes/<target>/ and replayed
/// here for ever), and the seeds are real inputs, not noise: most of them decode.
@Suite struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fuzz")

    static func inputs(_ folder: String, _ target: String) throws -> [(String, [UInt8])] {
        let directory = root.appendingPathComponent(folder).appendingPathComponent(target)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func seedsExistAndMostDecode(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let seeds = try Self.inputs("corpus", name)
        #expect(!seeds.isEmpty, "fuzz/corpus/\(name) has no seed (run ci/fuzz-seeds.py)")
        let decoded = seeds.filter { target.run($0.1) }.count
        // Invalid seeds are kept on purpose (e.g. NIP-44's invalid payloads), but a corpus whose
        // seeds mostly fail would mean the target reads them wrongly.
        #expect(decoded * 2 >= seeds.count, "\(name): only \(decoded) of \(seeds.count) seeds decode")
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func savedCrashInputsNoLongerCrash(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        for (_, input) in try Self.inputs("crashes", name) { _ = target.run(input) }
    }

    @Test func everyCorpusFolderNamesATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("corpus").path)
        #expect(Set(folders) == Set(FuzzTarget.all.map(\.name)))
    }
}
