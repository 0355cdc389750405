// Durable state (issue 20): an engine given a state file loads it at start and rewrites it after
// every operation that changed what it holds, so that a member killed between two operations
// restarts from the state after the last completed one (docs/engine-state-format.md).
import EngineInterface
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension NativeSwiftEngine {
    /// What the engine holds now, as the state file stores it.
    var heldState: EngineState {
        EngineState(
            keyPackages: keyPackages, groups: groups, welcomes: welcomes, joinedWelcomes: joinedWelcomes, profile: profile,
            accountKeys: profile == .current ? accountKeys : [:], unrecoverable: unrecoverableGroups)
    }

    /// Runs one operation and then writes the state file if the operation changed the state, even
    /// when it failed: a failed ingest is remembered as failed, and that memory must survive too.
    /// A write failure wins over the operation's own outcome: reporting success for a change the
    /// disk did not take would let a restart silently lose it.
    ///
    /// The engine-internal crash points (docs/restart-matrix.md) sit here: once the operation ran in
    /// memory and before its state is written (`engine-unsaved`, `branch-switch-unsaved` when the
    /// operation switched branch: a better competitor replaced the commit we had applied, or we
    /// followed the branch the group built on), and after the write before the result is returned
    /// (`engine-saved-unreported`). A member that died there answers every later call `crashed`.
    func persisting<T>(_ operation: () throws(EngineError) -> T) throws(EngineError) -> T {
        if let crash = crashSwitch, crash.isTripped { throw CrashSwitch.deadError("engine call") }
        switchedBranch = false
        let outcome: Result<T, EngineError>
        do { outcome = .success(try operation()) } catch { outcome = .failure(error) }
        guard let crash = crashSwitch, stateFile != nil else {
            try saveIfChanged()
            return try outcome.get()
        }
        let bytes = try EngineStateFile.encode(heldState)
        if bytes != lastWritten {
            if case .success = outcome, switchedBranch, crash.reached(.branchSwitchUnsaved) {
                throw CrashSwitch.deadError("switching to the rival branch")
            }
            if crash.reached(.engineUnsaved) { throw CrashSwitch.deadError("before the state file was written") }
            try save(bytes)
            if crash.reached(.engineSavedUnreported) { throw CrashSwitch.deadError("after the state file was written") }
        }
        return try outcome.get()
    }

    /// Writes the state file when the state's encoding differs from the last one written. Encoding
    /// is deterministic (maps in key order), so equal bytes mean an unchanged state.
    func saveIfChanged() throws(EngineError) {
        guard stateFile != nil else { return }
        let bytes = try EngineStateFile.encode(heldState)
        guard bytes != lastWritten else { return }
        try save(bytes)
    }

    private func save(_ bytes: [UInt8]) throws(EngineError) {
        guard let path = stateFile else { return }
        try Self.writeAtomically(bytes, to: path)
        lastWritten = bytes
        writeCount += 1
    }

    /// The state in `path`, or nil when there is no file yet (a member's first start).
    static func loadState(from path: String) throws(EngineError) -> (state: EngineState, bytes: [UInt8])? {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else { throw EngineError(.storage, "state file \(path) is a directory") }
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            guard size <= EngineStateFile.maximumSize else {
                throw EngineError(.invalidStateFile, "state file \(path) is \(size) bytes, more than \(EngineStateFile.maximumSize)")
            }
            data = try Data(contentsOf: url)
        } catch let error as EngineError {
            throw error
        } catch {
            throw EngineError(.storage, "state file \(path) cannot be read: \(error.localizedDescription)")
        }
        let bytes = [UInt8](data)
        do { return (try EngineStateFile.decode(bytes), bytes) } catch {
            throw EngineError(error.code, "state file \(path): \(error.reason)")
        }
    }

    /// Writes the state so that a reader (a restart) sees the old state or the new, never half,
    /// and nobody else reads it (issue 30, N6): the bytes go to a temporary file in the same
    /// directory, created owner-only (0600), flushed, then renamed over `path`; the directory
    /// (its last component created 0700 if missing) is flushed after the rename, so the rename itself survives a
    /// crash. The file holds every group's secrets: no other account may read it.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(EngineError) {
        try StateFileWriter.replace(path, with: bytes)
    }
}

/// The POSIX steps of `writeAtomically`, outside the engine so that no member name shadows them.
enum StateFileWriter {
    static func replace(_ path: String, with bytes: [UInt8]) throws(EngineError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        func failure(_ what: String) -> EngineError {
            EngineError(.storage, "state file \(path) cannot be written: \(what) failed (errno \(errno))")
        }
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            do {
                // Only the last component: a path whose parent is missing is a mistake to report.
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: StateFileMode.directory])
            } catch {
                throw EngineError(.storage, "state directory \(directory) cannot be created: \(error.localizedDescription)")
            }
        }
        let temporary = path + ".tmp"
        _ = unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, StateFileMode.file)
        guard fd >= 0 else { throw failure("creating \(temporary)") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { raw in write(fd, raw.baseAddress! + written, raw.count - written) }
            guard n > 0 else {
                close(fd)
                _ = unlink(temporary)
                throw failure("writing")
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            close(fd)
            _ = unlink(temporary)
            throw failure("flushing the file")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            _ = unlink(temporary)
            throw failure("renaming")
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY)
        guard directoryFD >= 0 else { throw failure("opening the directory") }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw failure("flushing the directory") }
    }
}

/// The permissions of what the engine writes (issue 30, N6): owner-only.
package enum StateFileMode {
    package static let file: mode_t = 0o600
    package static let directory: Int = 0o700
}

extension NativeSwiftEngine {
    /// Reads state-file bytes as a restart would, without starting an engine, and writes the state
    /// back: for tests and the `engine-state` fuzz target. A file this build wrote comes back
    /// byte for byte (one state, one encoding).
    /// - Throws: the errors of a restart from such a file (`.invalidStateFile` with the reason).
    package static func reencodedState(_ bytes: [UInt8]) throws(EngineError) -> [UInt8] {
        try EngineStateFile.encode(EngineStateFile.decode(bytes))
    }

    /// The bytes a state file written now would hold (whether or not this engine has one).
    package func stateBytes() throws(EngineError) -> [UInt8] {
        try EngineStateFile.encode(heldState)
    }
}
