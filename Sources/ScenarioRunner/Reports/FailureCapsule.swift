// A failure capsule: everything needed to reproduce one failing run and to understand it without
// re-running. It embeds the scenario text, so `marmot-conform replay CAPSULE` reproduces the run
// even after the scenario file changed, and says so when it did; and the whole trace of the run in
// the order things happened, which `marmot-conform trace CAPSULE` draws as a sequence diagram.
//
// A capsule is JSON (`<scenario>-<engine>-seed<N>.capsule.json`, the scenario named by its path
// under scenarios/); one larger than
// `compressionThreshold` is written gzip'd instead (`….capsule.json.gz`, same JSON inside).
import Foundation
import ScenarioModel

package struct FailureCapsule: Hashable, Sendable, Codable {
    /// Bumped on any incompatible change of this format. 2: the whole merged trace (`trace`)
    /// replaced the last 80 lines (`traceTail`). 3: a capsule with a `schedule` (written by
    /// `explore`); one without is still written as 2, and every 2 still reads.
    package static let formatVersion = 2
    /// The format of a capsule that carries a schedule: a build that knows only 2 refuses it
    /// rather than replay the seeded run in its place.
    package static let scheduleFormatVersion = 3
    /// Capsules larger than this many bytes of JSON are written gzip'd.
    package static let compressionThreshold = 256 * 1024

    package let format: Int
    package let scenarioFile: String
    /// The scenario exactly as it ran.
    package let scenarioText: String
    package let engine: String
    /// Engine name → version, as the engines reported them.
    package let engineVersions: [String: String]
    package let seed: UInt64
    /// The steps that ran, one line each (virtual time, step, position), up to the failure.
    package let stepLog: [String]
    /// The whole trace of the run, network and members merged in order.
    package let trace: [TraceLine]
    /// Where each step began in `trace`.
    package let steps: [StepMark]
    package let fingerprint: String?
    /// The failing checks with expected and observed values.
    package let failures: [CheckResult]
    package let reproduce: String
    /// The choices the run took at its choice points (docs/explore.md), 0 the default; absent for
    /// a seeded run. Replay follows it in the explorer's world (no jitter).
    package let schedule: [Int]?

    package init(
        scenarioFile: String, scenarioText: String, engine: String, engineVersions: [String: String], seed: UInt64,
        stepLog: [String], trace: [TraceLine], steps: [StepMark], fingerprint: String?, failures: [CheckResult], reproduce: String,
        schedule: [Int]? = nil
    ) {
        format = schedule == nil ? Self.formatVersion : Self.scheduleFormatVersion
        self.schedule = schedule
        self.scenarioFile = scenarioFile
        self.scenarioText = scenarioText
        self.engine = engine
        self.engineVersions = engineVersions
        self.seed = seed
        self.stepLog = stepLog
        self.trace = trace
        self.steps = steps
        self.fingerprint = fingerprint
        self.failures = failures
        self.reproduce = reproduce
    }

    /// The capsule as pretty-printed JSON with sorted keys.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The bytes to write and the file name: JSON, or gzip'd JSON when large.
    package func encoded() throws -> (data: Data, fileName: String) {
        let json = try json()
        if json.count > Self.compressionThreshold, let compressed = Gzip.compress(json) {
            return (compressed, suggestedFileName + ".gz")
        }
        return (json, suggestedFileName)
    }

    /// Reads a capsule (plain or gzip'd), refusing formats this build does not know.
    package init(json data: Data, file: String) throws(ScenarioError) {
        let here = SourceLocation(file: file, line: 1, column: 1)
        var data = data
        if Gzip.isCompressed(data) {
            guard let plain = Gzip.decompress(data) else {
                throw ScenarioError(.invalidValue, at: here, "not a failure capsule: a gzip stream that does not decompress")
            }
            data = plain
        }
        struct Header: Decodable { let format: Int }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw ScenarioError(.invalidValue, at: here, "not a failure capsule: no format number")
        }
        guard header.format == Self.formatVersion || header.format == Self.scheduleFormatVersion else {
            throw ScenarioError(
                .invalidValue, at: here,
                "capsule format \(header.format); this build reads formats \(Self.formatVersion) and \(Self.scheduleFormatVersion)")
        }
        do {
            self = try JSONDecoder().decode(FailureCapsule.self, from: data)
        } catch {
            throw ScenarioError(.invalidValue, at: here, "not a failure capsule: \(error)")
        }
    }

    /// A file name that identifies the run: `<scenario>-<engine>-seed<N>.capsule.json`, where the
    /// scenario is its path under `scenarios/` with `/` as `-` (as vectors name it), or the file's
    /// stem elsewhere. The stem alone is not enough: the fault matrix has a `bob-commit-drop.yaml`
    /// in several flows, and one run's capsules would overwrite each other.
    package var suggestedFileName: String {
        let components = URL(fileURLWithPath: scenarioFile).deletingPathExtension().pathComponents
        let name =
            components.lastIndex(of: "scenarios").map { components[($0 + 1)...].joined(separator: "-") }
            ?? components.last ?? "scenario"
        return "\(name)-\(engine)-seed\(seed)\(schedule == nil ? "" : "-schedule").capsule.json"
    }
}
