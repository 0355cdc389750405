// The engine state file (docs/engine-state-format.md): everything a NativeSwiftEngine holds, so that
// a member whose process stops restarts exactly where it was. The bytes are read back as untrusted:
// every failure is an `EngineError` naming what is wrong, never a trap.
//
// struct {
//     opaque magic[8];                    // "MCENGINE"
//     uint16 version;                     // 2 (1 is still read: group records inline)
//     EngineState state;                  // and nothing after it
// } EngineStateFile;
//
// struct {
//     KeyPackageEntry key_packages<V>;    // ascending by reference
//     GroupEntry groups<V>;               // ascending by MLS group id
//     WelcomeEntry welcomes<V>;           // ascending by welcome rumor id
//     JoinedWelcome joined_welcomes<V>;   // ascending by MLS group id
// } EngineState;
//
// struct { opaque reference<V>; KeyPackagePrivateState key_package; } KeyPackageEntry;
// struct {
//     String mls_group_id;
//     opaque record<V>;                   // GroupRecordState, at most maximumGroupRecordSize bytes
// } GroupEntry;                           // version 1: GroupRecordState inline, not wrapped
// struct { EventID rumor_id; StoredWelcomeState welcome; } WelcomeEntry;
// struct { String mls_group_id; UnsignedEventState rumor; } JoinedWelcome;
//
// (KeyPackagePrivateState and GroupState: Sources/MLS/Persistence; the rest: EngineState+Records.swift.)
import EngineInterface
import MLS
import Nostr
import TLSCodec

extension EngineError.Code {
    /// A state file that is not one this build can load: wrong magic, an unknown version, bytes
    /// that do not decode, or a state whose parts do not fit together.
    package static let invalidStateFile = Self("invalid_state_file")
    /// A group whose record in the state file did not load (damaged, or over the per-group cap):
    /// the other groups run; this one answers every operation with this code (issue 30, N6).
    package static let groupUnrecoverable = Self("group_unrecoverable")
}

/// A group entry of the state file that did not load: its bytes, kept as they were and written
/// back unchanged (a later build, or a person, may still recover them), and why it failed.
struct UnrecoverableGroup: Error, Sendable, Hashable {
    var bytes: [UInt8]
    var reason: String
}

/// Everything a `NativeSwiftEngine` holds apart from its generator and clock.
struct EngineState: Sendable {
    var keyPackages: [[UInt8]: KeyPackagePrivate] = [:]
    var groups: [MLSGroupID: GroupRecord] = [:]
    var welcomes: [EventID: StoredWelcome] = [:]
    var joinedWelcomes: [MLSGroupID: UnsignedEvent] = [:]
    /// Group entries that did not load (issue 30, N6).
    var unrecoverable: [MLSGroupID: UnrecoverableGroup] = [:]
}

/// The container: magic, version, body.
enum EngineStateFile {
    static let magic: [UInt8] = Array("MCENGINE".utf8)
    /// The version this build writes, and the only one it reads (see the versioning rule in the doc).
    static let currentVersion: UInt16 = 2
    /// The earlier version this build still reads (group records inline, so one damaged record
    /// fails the whole file); it writes only `currentVersion`.
    static let readableVersions: Set<UInt16> = [1, 2]
    /// Larger files are refused before they are read: no state of a simulated member comes near.
    static let maximumSize = 1 << 30
    /// The largest record one group may have in the file (issue 30, N6): a larger one is not
    /// decoded, and its group is unrecoverable, not the file. A group of a thousand members with
    /// its past epochs and message history stays far below it; writing a larger one fails the
    /// operation (`.storage`) rather than leave a file whose group would not load.
    static let maximumGroupRecordSize = 16 << 20

    static func encode(_ state: EngineState) throws(EngineError) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeBytes(magic)
        writer.write(currentVersion)
        try state.encode(to: &writer)
        if let failure = writer.failure { throw EngineError(.internal, "the engine state does not serialize: \(failure)") }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(EngineError) -> EngineState {
        guard bytes.count >= magic.count + 2 else {
            throw EngineError(.invalidStateFile, "truncated: \(bytes.count) bytes, shorter than the magic and version")
        }
        guard Array(bytes.prefix(magic.count)) == magic else {
            throw EngineError(.invalidStateFile, "wrong magic: not an engine state file")
        }
        let version = UInt16(bytes[magic.count]) << 8 | UInt16(bytes[magic.count + 1])
        guard readableVersions.contains(version) else {
            throw EngineError(
                .invalidStateFile, "unknown version \(version): this build reads only versions \(readableVersions.sorted())")
        }
        var reader = TLSReader(bytes[(magic.count + 2)...])
        do {
            let state = try EngineState(from: &reader, version: version)
            try reader.finish()
            return state
        } catch {
            throw EngineError(.invalidStateFile, "version \(version): \(error.description)")
        }
    }
}

extension EngineState {
    func encode(to writer: inout TLSWriter) throws(EngineError) {
        writer.writeMap(keyPackages, by: bytesAscending) { w, reference, keyPackage in
            w.writeOpaque(reference)
            keyPackage.encodeState(to: &w)
        }
        // Each record is wrapped in its own length, so that a damaged one can be skipped on reading.
        var entries = unrecoverable.mapValues(\.bytes)
        for (id, record) in groups {
            var inner = TLSWriter()
            record.encodeState(to: &inner)
            guard inner.bytes.count <= EngineStateFile.maximumGroupRecordSize else {
                throw EngineError(
                    .storage,
                    "group \(id.hex)'s record is \(inner.bytes.count) bytes, more than the cap of \(EngineStateFile.maximumGroupRecordSize)"
                )
            }
            entries[id] = inner.bytes
        }
        writer.writeMap(entries, by: groupIDAscending) { w, id, bytes in
            w.writeString(id.hex)
            w.writeOpaque(bytes)
        }
        writer.writeMap(welcomes, by: <) { w, id, welcome in
            w.writeEventID(id)
            welcome.encodeState(to: &w)
        }
        writer.writeMap(joinedWelcomes, by: groupIDAscending) { w, id, rumor in
            w.writeString(id.hex)
            rumor.encodeState(to: &w)
        }
    }

    init(from reader: inout TLSReader, version: UInt16) throws(TLSCodecError) {
        keyPackages = try reader.readMap("key packages", by: bytesAscending) { (r: inout TLSReader) throws(TLSCodecError) in
            (try r.readOpaque(), try KeyPackagePrivate(state: &r))
        }
        if version >= 2 {
            let entries = try reader.readMap("groups", by: groupIDAscending) { (r: inout TLSReader) throws(TLSCodecError) in
                (MLSGroupID(hex: try r.readString()), try r.readOpaque())
            }
            for (id, bytes) in entries {
                switch Self.groupRecord(id, bytes) {
                case .success(let record): groups[id] = record
                case .failure(let failure): unrecoverable[id] = failure
                }
            }
        } else {
            groups = try Self.inlineGroups(&reader)
        }
        welcomes = try reader.readMap("welcomes", by: <) { (r: inout TLSReader) throws(TLSCodecError) in
            let id = try r.readEventID()
            let welcome = try StoredWelcome(state: &r)
            guard welcome.summary.id == id else {
                throw TLSCodecError(.inconsistentState, "welcome entry \(id.hex) holds welcome \(welcome.summary.id.hex)")
            }
            return (id, welcome)
        }
        joinedWelcomes = try reader.readMap("joined welcomes", by: groupIDAscending) { (r: inout TLSReader) throws(TLSCodecError) in
            (MLSGroupID(hex: try r.readString()), try UnsignedEvent(state: &r))
        }
    }

    /// One group's record of a version-2 file, or why it does not load: over the cap, not
    /// decoding, bytes after it, or the record of another group.
    static func groupRecord(_ id: MLSGroupID, _ bytes: [UInt8]) -> Result<GroupRecord, UnrecoverableGroup> {
        guard bytes.count <= EngineStateFile.maximumGroupRecordSize else {
            return .failure(
                UnrecoverableGroup(
                    bytes: bytes, reason: "record of \(bytes.count) bytes, more than the cap of \(EngineStateFile.maximumGroupRecordSize)"))
        }
        var r = TLSReader(bytes)
        do {
            let record = try GroupRecord(state: &r)
            try r.finish()
            guard record.id == id else {
                return .failure(UnrecoverableGroup(bytes: bytes, reason: "the entry holds group \(record.id.hex)"))
            }
            return .success(record)
        } catch {
            return .failure(UnrecoverableGroup(bytes: bytes, reason: error.description))
        }
    }

    /// Version 1: group records inline, so any damage in one fails the whole file.
    static func inlineGroups(_ reader: inout TLSReader) throws(TLSCodecError) -> [MLSGroupID: GroupRecord] {
        try reader.readMap("groups", by: groupIDAscending) { (r: inout TLSReader) throws(TLSCodecError) in
            let id = MLSGroupID(hex: try r.readString())
            let record = try GroupRecord(state: &r)
            // The engine finds a record by the id of its group; a record under another id would be
            // reached by one name and rewritten under the other.
            guard record.id == id else {
                throw TLSCodecError(.inconsistentState, "group entry \(id.hex) holds group \(record.id.hex)")
            }
            return (id, record)
        }
    }
}

func groupIDAscending(_ a: MLSGroupID, _ b: MLSGroupID) -> Bool { a.hex < b.hex }
