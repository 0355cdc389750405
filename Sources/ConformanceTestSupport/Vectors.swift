// Locating the repository's `vectors/` folder from a test, without bundling resources.
import Foundation

public enum Vectors {
    /// The repository root, found by walking up from this source file to the folder holding Package.swift.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
            url.deleteLastPathComponent()
        }
        preconditionFailure("Package.swift not found above \(#filePath)")
    }()

    /// The URL of `vectors/<relativePath>`.
    public static func url(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("vectors").appendingPathComponent(relativePath)
    }

    /// The bytes of `vectors/<relativePath>`.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// Decodes `vectors/<relativePath>` as JSON into `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from relativePath: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(relativePath))
    }
}
