// Runs a Python script from the project's venv (created by ci/setup) as a subprocess, so that
// tests can check our output against real peers (nostr-sdk, mdk-python).
import Foundation

public enum PythonVenv {
    /// Why a peer check could not run.
    public enum Unavailable: Error, CustomStringConvertible {
        case noVenv(String)
        public var description: String {
            switch self {
            case .noVenv(let path):
                return "no Python venv at \(path): run ci/setup" + (Peers.requiredByCI ? " (CI is set: peer tests are required)" : "")
            }
        }
    }

    /// The venv's interpreter, or nil when ci/setup has not created it (e.g. no python3 on the host).
    public static var interpreter: URL? {
        let url = Vectors.repositoryRoot.appendingPathComponent(".venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    /// The outcome of one script run.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: String
    }

    /// Runs `script` (a path relative to the repository root) with `arguments`, feeding `input`
    /// on stdin, and returns its exit status and output.
    /// - Throws: `Unavailable.noVenv` when the venv is missing; launch errors otherwise.
    public static func run(script: String, arguments: [String] = [], input: Data = Data()) throws -> Result {
        guard let python = interpreter else {
            throw Unavailable.noVenv(Vectors.repositoryRoot.appendingPathComponent(".venv").path)
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [Vectors.repositoryRoot.appendingPathComponent(script).path] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write and read concurrently so that large payloads cannot deadlock on full pipes.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errBox = ErrorCollector(handle: stderr.fileHandleForReading)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: out, stderr: errBox.finish())
    }
}

/// Drains a pipe on a background thread; `@unchecked Sendable` because `data` is written only by
/// that thread and read only after `done` is signalled.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func finish() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
