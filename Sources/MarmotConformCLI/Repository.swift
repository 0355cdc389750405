// Where the repository is, so that `marmot-conform` works from any directory: scenarios, vectors,
// the ledger, the venv and the MDK driver are all found under the repository root.
//
// The root is, in order: `--root DIR`; the first ancestor of the executable's own location that
// looks like the repository (a `swift build` binary sits in `.build/` under it); the first
// ancestor of the working directory that does. A folder "looks like the repository" when it has
// Package.swift, scenarios/ and vectors/.
//
// A relative path given on the command line is resolved against the working directory when
// something is there, else against the root (`marmot-conform run scenarios/group-lifecycle` works
// from `/`). After resolving its arguments a command works from the root, so that the defaults
// (vectors/scenarios, known-defects.yaml, run/capsules, .venv, drivers/) are the repository's.
import ArgumentParser
import Foundation

/// The `--root` option every repository-bound command takes.
struct RepositoryOptions: ParsableArguments {
    @Option(help: "The repository root (default: found from the executable's location or the working directory).")
    var root: String?

    /// Finds the root, resolves nothing yet.
    func locate() throws -> Repository {
        try Repository.locate(explicit: root, workingDirectory: FileManager.default.currentDirectoryPath)
    }
}

struct Repository {
    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The absolute, standardized root.
    let root: URL
    /// The working directory the command was started in.
    let workingDirectory: URL

    static func looksLikeRoot(_ url: URL) -> Bool {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        let hasPackage = fm.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        let hasScenarios = fm.fileExists(atPath: url.appendingPathComponent("scenarios").path, isDirectory: &isDir) && isDir.boolValue
        let hasVectors = fm.fileExists(atPath: url.appendingPathComponent("vectors").path, isDirectory: &isDir) && isDir.boolValue
        return hasPackage && hasScenarios && hasVectors
    }

    /// The first of `start` and its ancestors that looks like the repository.
    static func ancestor(of start: URL) -> URL? {
        var url = start.standardizedFileURL
        while true {
            if looksLikeRoot(url) { return url }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// The running executable, symlinks resolved (Linux: /proc/self/exe).
    static var executable: URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }

    static func locate(explicit: String?, workingDirectory: String) throws -> Repository {
        let cwd = URL(fileURLWithPath: workingDirectory, isDirectory: true).standardizedFileURL
        if let explicit {
            let url = URL(fileURLWithPath: explicit, relativeTo: cwd).standardizedFileURL
            guard looksLikeRoot(url) else {
                throw NotFound(
                    description:
                        "--root \(explicit): \(url.path) is not a marmot-conform repository (needs Package.swift, scenarios/ and vectors/)")
            }
            return Repository(root: url, workingDirectory: cwd)
        }
        if let binary = executable, let root = ancestor(of: binary.deletingLastPathComponent()) {
            return Repository(root: root, workingDirectory: cwd)
        }
        if let root = ancestor(of: cwd) { return Repository(root: root, workingDirectory: cwd) }
        throw NotFound(
            description: """
                cannot find the marmot-conform repository from \(cwd.path) or from the executable's location; \
                run inside a checkout or pass --root DIR
                """)
    }

    /// Whether the root is found from the executable alone (then a printed command needs no `--root`).
    var isFoundFromExecutable: Bool {
        guard let binary = Self.executable else { return false }
        return Self.ancestor(of: binary.deletingLastPathComponent())?.path == root.path
    }

    /// An input path: absolute as given; relative against the working directory when something is
    /// there, else against the root.
    func input(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        let here = URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
        if FileManager.default.fileExists(atPath: here.path) { return here }
        return URL(fileURLWithPath: path, relativeTo: root).standardizedFileURL
    }

    /// An output path: relative paths are the working directory's (where the user asked for them).
    func output(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
    }

    /// How a file is named in reports and scenario identities: relative to the root when under it
    /// (`scenarios/group-lifecycle/create.yaml`, whatever the working directory), else absolute.
    func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The command that reruns this executable from any directory: its absolute path, and
    /// `--root` when the executable alone would not find this root.
    var command: String {
        let binary = Self.executable?.path ?? "marmot-conform"
        return isFoundFromExecutable ? binary : "\(binary) --root \(root.path)"
    }

    /// Makes the root the working directory (the defaults are relative to it).
    func enter() throws {
        guard FileManager.default.changeCurrentDirectoryPath(root.path) else {
            throw NotFound(description: "cannot change to the repository root \(root.path)")
        }
    }
}
