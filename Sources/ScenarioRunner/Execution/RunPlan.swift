// What a run is made of before any engine starts, one way for both front doors (the CLI and the
// compatibility kit): which scenario files a path selects, the known-defects ledger, the world's
// epoch and the ledger's day. The wall clock is not read here (library code never does): the
// front doors read it and hand over the date.
import Foundation
import ScenarioModel

package enum RunPlan {
    /// Unix time of virtual instant zero, the same for every engine and every front door (MDK reads
    /// the world's clock through its driver's shim), so that pinned fingerprints hold for runs
    /// through the kit too.
    package static let epochUnixSeconds: UInt64 = 1_700_000_000

    /// A folder holding this file is a family with its own CI line (e.g. `scenarios/scale/`, whose
    /// worlds of 100+ members take minutes): a folder search above it skips it; naming it runs it.
    package static let separateLineMarker = "SEPARATE-CI-LINE"

    /// The known-defects ledger at a checkout's root.
    package static let ledgerFile = "known-defects.yaml"

    /// Where `<scenario stem>.json` outcome vectors and the pinned fingerprints live in a checkout.
    package static func vectorsDirectory(root: URL) -> URL { root.appendingPathComponent("vectors/scenarios") }

    /// What a path names.
    package enum Selection: Equatable, Sendable {
        /// One file (a scenario, whatever its name: it is named on purpose).
        case file
        /// A folder: its scenario files (`*.yaml`, `*.yml`) found recursively, as paths relative to
        /// it, in a stable order, without the families on a CI line of their own below it. Empty
        /// when it holds none: the caller refuses that (an empty selection must not "pass").
        case folder([String])
    }

    /// What is at `url`, or nil when nothing is.
    package static func select(_ url: URL) -> Selection? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return .file }
        let entries = (try? fm.subpathsOfDirectory(atPath: url.path)) ?? []
        let separate = entries.filter { ($0 as NSString).lastPathComponent == separateLineMarker }
            .map { ($0 as NSString).deletingLastPathComponent + "/" }
        return .folder(
            entries.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .filter { entry in !separate.contains { entry.hasPrefix($0) } }.sorted())
    }

    /// The ledger at `url`; none when the file does not exist.
    /// - Throws: the file exists and cannot be read, or a `ScenarioError` for a malformed entry.
    package static func ledger(at url: URL) throws -> DefectLedger {
        guard FileManager.default.fileExists(atPath: url.path) else { return DefectLedger(entries: []) }
        return try DefectLedger(yaml: try String(contentsOf: url, encoding: .utf8), file: url.path)
    }

    /// `date` as the ledger's `YYYY-MM-DD` (UTC), for entry expiry.
    package static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
