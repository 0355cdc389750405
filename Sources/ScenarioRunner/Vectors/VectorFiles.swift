// The files under vectors/scenarios/: one outcome vector per scenario and the pinned trace
// fingerprints. Both carry a format version, and a file of another version is refused with the
// reason, not read as if it were this one: a fingerprint pins a trace written in one vocabulary
// (docs/trace-vocabulary.md), and a vector an outcome of one schema (OutcomeSchema).
//
//     vector file       = "{" "\"format-version\": " version "," member-label ": " member-outcome … "}"
//     fingerprints file = "{" "\"fingerprints\" : {" key " : " hex … "}," "\"format-version\" : " version "}"
//     key               = vector-name " " engine-selection " seed " seed
import Foundation
import ScenarioModel

extension ScenarioError.Code {
    /// A vector or fingerprint file of another format version than this build writes.
    package static let formatVersion = Self("scenario.formatVersion")
    /// A vector, fingerprint or capsule file could not be written.
    package static let unwritableFile = Self("scenario.unwritableFile")
}

/// The format of the vector and fingerprint files.
package enum VectorFormat {
    /// 2: the trace vocabulary is ours (docs/trace-vocabulary.md) and the outcome follows
    /// OutcomeSchema. (1 was the unversioned files before, whose traces printed Swift values.)
    package static let version = 2
    /// The key that carries the version, beside a vector's member labels (no label has a `-`
    /// followed by `version`; scenario labels are names like `alice`).
    package static let key = "format-version"

    /// A vector's stored text: the outcome's members with the version beside them.
    package static func vectorText(_ outcome: Outcome) -> String {
        guard case .map(var members) = outcome else { return outcome.json() }
        members[key] = .integer(Int64(version))
        return Outcome.map(members).json()
    }

    /// Reads a stored vector; refuses one of another format version.
    package static func readVector(_ text: String, file: String) throws(ScenarioError) -> Outcome {
        let stored = try Outcome(json: text, file: file)
        guard case .map(var members) = stored else {
            throw ScenarioError(.invalidValue, at: SourceLocation(file: file, line: 1, column: 1), "a vector is a map of member labels")
        }
        let found = members.removeValue(forKey: key)
        guard found == .integer(Int64(version)) else {
            throw ScenarioError(.formatVersion, at: SourceLocation(file: file, line: 1, column: 1), refusal(found.map(\.summary)))
        }
        return .map(members)
    }

    /// The fingerprints file's contents.
    struct FingerprintFile: Codable {
        var formatVersion: Int?
        var fingerprints: [String: String]?

        enum CodingKeys: String, CodingKey {
            case formatVersion = "format-version"
            case fingerprints
        }
    }

    /// The fingerprints file's bytes: pretty-printed, keys sorted, one entry a line.
    package static func fingerprintsData(_ entries: [String: String]) throws(ScenarioError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(FingerprintFile(formatVersion: version, fingerprints: entries)) + Data("\n".utf8)
        } catch {
            throw ScenarioError(
                .unwritableFile, at: SourceLocation(file: "fingerprints.json", line: 1, column: 1), "not encodable: \(error)")
        }
    }

    /// Reads the fingerprints; refuses a file of another format version.
    package static func readFingerprints(_ data: Data, file: String) throws(ScenarioError) -> [String: String] {
        let at = SourceLocation(file: file, line: 1, column: 1)
        let decoded: FingerprintFile
        do {
            decoded = try JSONDecoder().decode(FingerprintFile.self, from: data)
        } catch {
            throw ScenarioError(.invalidValue, at: at, "does not read as fingerprints: \(error)")
        }
        guard decoded.formatVersion == version else {
            throw ScenarioError(.formatVersion, at: at, refusal(decoded.formatVersion.map(String.init)))
        }
        guard let entries = decoded.fingerprints else { throw ScenarioError(.missingField, at: at, "no \"fingerprints\" map") }
        return entries
    }

    /// Writes `data` to `url`, making its folder first.
    package static func write(_ data: Data, to url: URL) throws(ScenarioError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw ScenarioError(.unwritableFile, at: SourceLocation(file: url.path, line: 1, column: 1), "could not be written: \(error)")
        }
    }

    static func refusal(_ found: String?) -> String {
        let what = found.map { "format-version \($0)" } ?? "no format-version (written before versions existed)"
        return "\(what); this build reads format-version \(version) only: regenerate it as vectors/scenarios/SOURCE.md says"
            + " (--update-vectors), after reviewing why it changed"
    }
}
