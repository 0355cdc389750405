// Scenario files and the ledger of a marmot-conform checkout, selected by the runner's `RunPlan` as
// the CLI selects them: a folder is searched recursively in a stable order, leaving out families on
// a CI line of their own (a `SEPARATE-CI-LINE` file) unless named; a selection with no scenario is
// an error, never a pass. Paths are taken from the checkout's root.
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
        switch RunPlan.select(root.appendingPathComponent(path)) {
        case nil:
            throw KitError(.badPath, "no such file or folder under \(root.path): \(path)")
        case .file?:
            return [path]
        case .folder(let found)?:
            guard !found.isEmpty else { throw KitError(.badPath, "no scenario (*.yaml, *.yml) under \(path)") }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            return found.map { "\(base)/\($0)" }
        }
    }

    /// The checkout's known-defects ledger (none when the file is absent; one that is there and
    /// cannot be read is an error, as in the CLI, not an empty ledger).
    static func ledger(_ root: URL) throws(KitError) -> DefectLedger {
        do {
            return try RunPlan.ledger(at: root.appendingPathComponent(RunPlan.ledgerFile))
        } catch {
            throw KitError(.badLedger, "\(error)")
        }
    }
}
