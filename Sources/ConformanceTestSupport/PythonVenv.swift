import Foundation
// Runs a Python script from the project's venv (created by ci/setup) as a subprocess, so that
// tests can check our output against real peers (nostr-sdk, mdk-python).
import ProcessSupport

package enum PythonVenv {
    /// Why a peer check could not run.
    package enum Unavailable: Error, CustomStringConvertible {
        case noVenv(String)
        package var description: String {
            switch self {
            case .noVenv(let path):
                return "no Python venv at \(path): run ci/setup" + (Peers.requiredByCI ? " (CI is set: peer tests are required)" : "")
            }
        }
    }

    /// The venv's interpreter, or nil when ci/setup has not created it (e.g. no python3 on the host).
    package static var interpreter: URL? {
        let url = Vectors.repositoryRoot.appendingPathComponent(".venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    /// The outcome of one script run.
    package struct Result: Sendable {
        package let status: Int32
        package let stdout: Data
        package let stderr: String
    }

    /// Runs `script` (a path relative to the repository root) with `arguments`, feeding `input`
    /// on stdin, and returns its exit status and output (through `ChildProcess`, the project's one
    /// swift-subprocess user).
    /// - Throws: `Unavailable.noVenv` when the venv is missing; launch errors otherwise.
    package static func run(script: String, arguments: [String] = [], input: Data = Data()) async throws -> Result {
        guard let python = interpreter else {
            throw Unavailable.noVenv(Vectors.repositoryRoot.appendingPathComponent(".venv").path)
        }
        let result = try await ChildProcess.run(
            executable: python.path, arguments: [Vectors.repositoryRoot.appendingPathComponent(script).path] + arguments,
            input: [UInt8](input))
        return Result(status: result.status, stdout: Data(result.stdout), stderr: String(decoding: result.stderr, as: UTF8.self))
    }
}
