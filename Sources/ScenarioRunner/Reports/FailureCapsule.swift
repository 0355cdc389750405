// A failure capsule: everything needed to reproduce one failing run and to understand it without
// re-running. It embeds the scenario text, so `marmot-conform replay CAPSULE` reproduces the run
// even after the scenario file changed, and says so when it did.
import Foundation

public struct FailureCapsule: Hashable, Sendable, Codable {
    /// Bumped on any incompatible change of this format.
    public static let formatVersion = 1

    public let format: Int
    public let scenarioFile: String
    /// The scenario exactly as it ran.
    public let scenarioText: String
    public let engine: String
    /// Engine name → version, as the engines reported them.
    public let engineVersions: [String: String]
    public let seed: UInt64
    /// The steps that ran, one line each, up to the failure.
    public let stepLog: [String]
    /// The last entries of the world trace.
    public let traceTail: [String]
    public let fingerprint: String?
    /// The failing checks with expected and observed values.
    public let failures: [CheckResult]
    public let reproduce: String

    public init(scenarioFile: String, scenarioText: String, engine: String, engineVersions: [String: String], seed: UInt64,
                stepLog: [String], traceTail: [String], fingerprint: String?, failures: [CheckResult], reproduce: String) {
        format = Self.formatVersion
        self.scenarioFile = scenarioFile
        self.scenarioText = scenarioText
        self.engine = engine
        self.engineVersions = engineVersions
        self.seed = seed
        self.stepLog = stepLog
        self.traceTail = traceTail
        self.fingerprint = fingerprint
        self.failures = failures
        self.reproduce = reproduce
    }

    /// The capsule as pretty-printed JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a capsule, refusing formats this build does not know.
    public init(json data: Data, file: String) throws(ScenarioError) {
        let here = SourceLocation(file: file, line: 1, column: 1)
        let capsule: FailureCapsule
        do {
            capsule = try JSONDecoder().decode(FailureCapsule.self, from: data)
        } catch {
            throw ScenarioError(.invalidValue, at: here, "not a failure capsule: \(error)")
        }
        guard capsule.format == Self.formatVersion else {
            throw ScenarioError(.invalidValue, at: here, "capsule format \(capsule.format); this build reads format \(Self.formatVersion)")
        }
        self = capsule
    }

    /// A file name that identifies the run: `<scenario file stem>-<engine>-seed<N>.capsule.json`.
    public var suggestedFileName: String {
        let stem = URL(fileURLWithPath: scenarioFile).deletingPathExtension().lastPathComponent
        return "\(stem)-\(engine)-seed\(seed).capsule.json"
    }
}
