// Reads the targets of Package.swift, and the dependencies each declares, as SwiftPM itself reads
// them: `swift package dump-package` prints the evaluated manifest as JSON, decoded here with
// Codable. Nothing here parses Swift source, so no form of the manifest can be misread.
import Foundation

/// One target of the manifest.
struct ManifestTarget: Equatable, Sendable, Decodable {
    let name: String
    /// SwiftPM's target type: `regular`, `executable`, `test`, `system`, `macro`, `plugin`, `binary`.
    let kind: String
    /// Target names and product names (= module names for the packages used here).
    let dependencies: Set<String>

    init(name: String, kind: String, dependencies: Set<String>) {
        self.name = name
        self.kind = kind
        self.dependencies = dependencies
    }

    private enum CodingKeys: String, CodingKey {
        case name
        case kind = "type"
        case dependencies
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        kind = try container.decode(String.self, forKey: .kind)
        dependencies = Set(try container.decode([ManifestDependency].self, forKey: .dependencies).map(\.name))
    }
}

/// One entry of a target's `dependencies` in dump-package's JSON: an object with a single key saying
/// how it was written (`byName`, `target`, `product`) over an array whose first element is the name;
/// the rest (package, module aliases, condition) does not matter here.
struct ManifestDependency: Decodable {
    let name: String

    private struct Form: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Form.self)
        guard container.allKeys.count == 1, let form = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a dependency has \(container.allKeys.count) forms, not one"))
        }
        var values = try container.nestedUnkeyedContainer(forKey: form)
        name = try values.decode(String.self)
    }
}

enum ManifestTargets {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct Manifest: Decodable {
        let targets: [ManifestTarget]
    }

    /// The targets of dump-package's JSON.
    static func decode(_ json: Data) throws -> [ManifestTarget] {
        try JSONDecoder().decode(Manifest.self, from: json).targets
    }

    /// The targets of the package at `root`, as `swift package dump-package` reports them. The scratch
    /// path is a fresh temporary folder: the test runs inside `swift test`, which holds the lock on
    /// the package's own `.build`, and dump-package writes nothing there anyway.
    static func dump(root: URL) throws -> [ManifestTarget] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a manifest's JSON outgrows the pipe's buffer.
        let json = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "swift package dump-package exited with \(process.terminationStatus): "
                    + String(decoding: stderr, as: UTF8.self))
        }
        return try decode(json)
    }
}
