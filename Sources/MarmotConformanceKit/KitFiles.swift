// Scenario files and the ledger of a marmot-conform checkout, as the CLI selects them: a folder is
// searched recursively in a stable order, leaving out families on a CI line of their own (a
// `SEPARATE-CI-LINE` file) unless named; a selection with no scenario is an error, never a pass.
import Foundation
import ScenarioModel
import ScenarioRunner

enum KitFiles {
    static func load(_ paths: [String], root: URL) throws(KitError) -> [(Scenario, text: String)] {
        var out: [(Scenario, text: String)] = []
        for path in paths {
            for name in try files(path, root: root) {
                let url = root.appendingPathComponent(name)
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw KitError(.badPath, "cannot read \(url.path)") }
                do {
                    out.append((try Scenario(yaml: text, file: name), text))
                } catch {
                    throw KitError(.badScenario, "\(error)")
                }
            }
        }
        guard !out.isEmpty else { throw KitError(.badPath, "no scenario in \(paths)") }
        return out
    }

    /// Root-relative names of the scenario files at `path`.
    static func files(_ path: String, root: URL) throws(KitError) -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory) else {
            throw KitError(.badPath, "no such file or folder under \(root.path): \(path)")
        }
        guard isDirectory.boolValue else { return [path] }
        let entries = ((try? fm.subpathsOfDirectory(atPath: root.appendingPathComponent(path).path)) ?? []).sorted()
        let separate = entries.filter { ($0 as NSString).lastPathComponent == "SEPARATE-CI-LINE" }
            .map { ($0 as NSString).deletingLastPathComponent + "/" }
        let found = entries.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.filter { entry in !separate.contains { entry.hasPrefix($0) } }
        guard !found.isEmpty else { throw KitError(.badPath, "no scenario (*.yaml, *.yml) under \(path)") }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        return found.map { "\(base)/\($0)" }
    }

    /// The checkout's known-defects ledger (none when the file is absent).
    static func ledger(_ root: URL) throws(KitError) -> DefectLedger {
        let url = root.appendingPathComponent("known-defects.yaml")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return DefectLedger(entries: []) }
        do {
            return try DefectLedger(yaml: text, file: url.path)
        } catch {
            throw KitError(.badLedger, "\(error)")
        }
    }
}
