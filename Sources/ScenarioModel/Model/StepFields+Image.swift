// The picture of a `set-image` step: a file under scenarios/assets/, or the bytes inline as base64.
// Read when the file loads, so that a missing or unreadable picture is reported at its field's
// position like any other bad value, never in mid-run.
import Foundation

extension StepFields {
    /// A file name (it contains a dot, which base64 never does) or base64 text.
    package func image(_ key: String) throws(ScenarioError) -> [UInt8] {
        let node = try required(key)
        let text = try node.string(key)
        guard text.contains(".") else {
            guard let data = Data(base64Encoded: text), !data.isEmpty else {
                throw ScenarioError(.invalidValue, at: node.location, "'\(key)' is neither a file name under scenarios/assets/ nor base64")
            }
            return [UInt8](data)
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard text.allSatisfy(allowed.contains), !text.hasPrefix(".") else {
            throw ScenarioError(.invalidValue, at: node.location, "'\(text)' must be a plain file name in scenarios/assets/ (no folders)")
        }
        guard let assets = Self.assetsFolder(above: node.location.file) else {
            throw ScenarioError(.invalidValue, at: node.location, "no scenarios/ folder above this file to find assets/\(text) in")
        }
        let path = assets.appendingPathComponent(text)
        guard let data = try? Data(contentsOf: path) else {
            throw ScenarioError(.invalidValue, at: node.location, "cannot read the image scenarios/assets/\(text)")
        }
        return [UInt8](data)
    }

    /// `scenarios/assets` of the nearest folder named `scenarios` holding `file`.
    static func assetsFolder(above file: String) -> URL? {
        var folder = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if folder.lastPathComponent == "scenarios" { return folder.appendingPathComponent("assets") }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
