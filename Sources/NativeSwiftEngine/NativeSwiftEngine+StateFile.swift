// Durable state (issue 20): an engine given a state file loads it at start and rewrites it after
// every operation that changed what it holds, so that a member killed between two operations
// restarts from the state after the last completed one (docs/engine-state-format.md).
import EngineInterface
import Foundation

extension NativeSwiftEngine {
    /// What the engine holds now, as the state file stores it.
    var heldState: EngineState {
        EngineState(
            keyPackages: keyPackages, groups: groups, welcomes: welcomes, joinedWelcomes: joinedWelcomes, profile: profile,
            accountKeys: profile == .current ? accountKeys : [:])
    }

    /// Runs one operation and then writes the state file if the operation changed the state, even
    /// when it failed: a failed ingest is remembered as failed, and that memory must survive too.
    /// A write failure wins over the operation's own outcome: reporting success for a change the
    /// disk did not take would let a restart silently lose it.
    func persisting<T>(_ operation: () throws(EngineError) -> T) throws(EngineError) -> T {
        let outcome: Result<T, EngineError>
        do { outcome = .success(try operation()) } catch { outcome = .failure(error) }
        try saveIfChanged()
        return try outcome.get()
    }

    /// Writes the state file when the state's encoding differs from the last one written. Encoding
    /// is deterministic (maps in key order), so equal bytes mean an unchanged state.
    func saveIfChanged() throws(EngineError) {
        guard let path = stateFile else { return }
        let bytes = try EngineStateFile.encode(heldState)
        guard bytes != lastWritten else { return }
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

    /// Foundation's atomic write: the bytes go to a temporary file in the same directory, which is
    /// then renamed over `path`, so a reader (a restart) sees the old state or the new, never half.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(EngineError) {
        do { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw EngineError(.storage, "state file \(path) cannot be written: \(error.localizedDescription)")
        }
    }
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
