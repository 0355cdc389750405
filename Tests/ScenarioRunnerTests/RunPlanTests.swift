// The one file selection, ledger and day both front doors use (the CLI's `run` and the kit).
import Foundation
import Testing

@testable import ScenarioRunner

@Suite struct RunPlanTests {
    static func tree(_ files: [String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runplan-\(UUID().uuidString)")
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        return root
    }

    /// A folder selects its YAML files recursively, sorted, without a family that has a CI line of
    /// its own; naming that family selects it; a file is itself; nothing there is nil.
    @Test func aFolderSelectsItsScenariosWithoutSeparateFamilies() throws {
        let root = try Self.tree([
            "s/b.yaml", "s/a/z.yml", "s/a/y.yaml", "s/notes.md", "s/scale/SEPARATE-CI-LINE", "s/scale/big.yaml", "empty/readme.txt",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(RunPlan.select(root.appendingPathComponent("s")) == .folder(["a/y.yaml", "a/z.yml", "b.yaml"]))
        #expect(RunPlan.select(root.appendingPathComponent("s/scale")) == .folder(["big.yaml"]))
        #expect(RunPlan.select(root.appendingPathComponent("s/scale/big.yaml")) == .file)
        #expect(RunPlan.select(root.appendingPathComponent("empty")) == .folder([]))
        #expect(RunPlan.select(root.appendingPathComponent("nothing")) == nil)
    }

    /// No ledger file is an empty ledger; a malformed one is an error, never an empty ledger.
    @Test func anAbsentLedgerIsEmptyAndABadOneThrows() throws {
        let root = try Self.tree([])
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try RunPlan.ledger(at: root.appendingPathComponent(RunPlan.ledgerFile)).entries.isEmpty)
        let bad = root.appendingPathComponent("bad.yaml")
        try Data("- engine: [not, a, name]\n".utf8).write(to: bad)
        #expect(throws: (any Error).self) { try RunPlan.ledger(at: bad) }
    }

    @Test func theDayIsUTC() {
        // 2023-11-14T22:13:20Z, and a second before a UTC midnight.
        #expect(RunPlan.day(Date(timeIntervalSince1970: Double(RunPlan.epochUnixSeconds))) == "2023-11-14")
        #expect(RunPlan.day(Date(timeIntervalSince1970: 1_700_006_399)) == "2023-11-14")
        #expect(RunPlan.day(Date(timeIntervalSince1970: 1_700_006_400)) == "2023-11-15")
    }
}
