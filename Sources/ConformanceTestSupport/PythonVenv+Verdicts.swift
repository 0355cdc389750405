// The JSON protocol shared by the ci/interop/check_*.py peer scripts: an array of items on stdin,
// `{"results": [verdict, …]}` on stdout, one verdict per item in input order.
import Foundation

extension PythonVenv {
    /// Why a peer script's run cannot be judged.
    package struct ScriptFailure: Error, CustomStringConvertible {
        package let script: String
        package let detail: String
        package var description: String { "\(script): \(detail)" }
    }

    private struct Results<Verdict: Decodable>: Decodable { let results: [Verdict] }

    /// Sends `items` to `script` and returns its verdicts, one per item.
    /// - Throws: `Unavailable` without a venv; `ScriptFailure` for a non-zero exit, unreadable output
    ///   or a verdict count that differs from the item count.
    package static func verdicts<Item: Encodable, Verdict: Decodable>(
        script: String, items: [Item], as _: Verdict.Type = Verdict.self
    ) async throws -> [Verdict] {
        let result = try await run(script: script, input: JSONEncoder().encode(items))
        guard result.status == 0 else {
            throw ScriptFailure(script: script, detail: "exit status \(result.status): \(result.stderr)")
        }
        let verdicts = try JSONDecoder().decode(Results<Verdict>.self, from: result.stdout).results
        guard verdicts.count == items.count else {
            throw ScriptFailure(script: script, detail: "\(verdicts.count) verdicts for \(items.count) items")
        }
        return verdicts
    }
}
