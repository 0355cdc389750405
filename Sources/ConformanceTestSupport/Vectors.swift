// Locating the repository's `vectors/` folder from a test, without bundling resources.
import Foundation

package enum Vectors {
    /// The repository root, found by walking up from this source file to the folder holding Package.swift.
    package static let repositoryRoot: URL = {
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
    package static func url(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("vectors").appendingPathComponent(relativePath)
    }

    /// Why a vector file gave no cases. A vector-driven test must never pass with zero cases: each
    /// of these fails the test, naming the file.
    package struct VectorFileError: Error, CustomStringConvertible {
        package let file: String
        package let reason: String
        package var description: String { "vectors/\(file): \(reason)" }
    }

    /// The bytes of `vectors/<relativePath>`; a missing or empty file is an error naming it.
    package static func data(_ relativePath: String) throws -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: url(relativePath))
        } catch {
            throw VectorFileError(file: relativePath, reason: "cannot be read (\(error.localizedDescription))")
        }
        guard !data.isEmpty else { throw VectorFileError(file: relativePath, reason: "is empty") }
        return data
    }

    /// Decodes `vectors/<relativePath>` as JSON into `T`; a file that does not decode, or decodes
    /// to an empty collection, is an error naming it.
    package static func decode<T: Decodable>(_ type: T.Type, from relativePath: String) throws -> T {
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: data(relativePath))
        } catch let error as VectorFileError {
            throw error
        } catch {
            throw VectorFileError(file: relativePath, reason: "does not decode as \(T.self): \(error)")
        }
        if let collection = value as? any Collection, collection.isEmpty {
            throw VectorFileError(file: relativePath, reason: "holds no case")
        }
        return value
    }

    /// `cases` unless empty: for the arguments of a parameterized test, which would otherwise pass
    /// with zero cases. `what` names the file (and the part of it) the cases came from.
    package static func nonEmpty<C: Collection>(_ cases: C, _ what: String) throws -> C {
        guard !cases.isEmpty else { throw VectorFileError(file: what, reason: "yields no case") }
        return cases
    }
}
