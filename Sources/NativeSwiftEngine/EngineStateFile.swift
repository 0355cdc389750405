// The engine state file (docs/engine-state-format.md): everything a NativeSwiftEngine holds, so that
// a member whose process stops restarts exactly where it was. The bytes are read back as untrusted:
// every failure is an `EngineError` naming what is wrong, never a trap.
//
// struct {
//     opaque magic[8];                    // "MCENGINE"
//     uint16 version;                     // 1
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
// struct { String mls_group_id; GroupRecordState record; } GroupEntry;
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
}

/// Everything a `NativeSwiftEngine` holds apart from its generator and clock.
struct EngineState: Sendable {
    var keyPackages: [[UInt8]: KeyPackagePrivate] = [:]
    var groups: [MLSGroupID: GroupRecord] = [:]
    var welcomes: [EventID: StoredWelcome] = [:]
    var joinedWelcomes: [MLSGroupID: UnsignedEvent] = [:]
}

/// The container: magic, version, body.
enum EngineStateFile {
    static let magic: [UInt8] = Array("MCENGINE".utf8)
    /// The version this build writes, and the only one it reads (see the versioning rule in the doc).
    static let currentVersion: UInt16 = 1
    /// Larger files are refused before they are read: no state of a simulated member comes near.
    static let maximumSize = 1 << 30

    static func encode(_ state: EngineState) throws(EngineError) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeBytes(magic)
        writer.write(currentVersion)
        state.encode(to: &writer)
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
        guard version == currentVersion else {
            throw EngineError(
                .invalidStateFile, "unknown version \(version): this build reads only version \(currentVersion)")
        }
        var reader = TLSReader(bytes[(magic.count + 2)...])
        do {
            let state = try EngineState(from: &reader)
            try reader.finish()
            return state
        } catch {
            throw EngineError(.invalidStateFile, "version \(version): \(error.description)")
        }
    }
}

extension EngineState {
    func encode(to writer: inout TLSWriter) {
        writer.writeMap(keyPackages, by: bytesAscending) { w, reference, keyPackage in
            w.writeOpaque(reference)
            keyPackage.encodeState(to: &w)
        }
        writer.writeMap(groups, by: groupIDAscending) { w, id, record in
            w.writeString(id.hex)
            record.encodeState(to: &w)
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

    init(from reader: inout TLSReader) throws(TLSCodecError) {
        keyPackages = try reader.readMap("key packages", by: bytesAscending) { (r: inout TLSReader) throws(TLSCodecError) in
            (try r.readOpaque(), try KeyPackagePrivate(state: &r))
        }
        groups = try reader.readMap("groups", by: groupIDAscending) { (r: inout TLSReader) throws(TLSCodecError) in
            let id = MLSGroupID(hex: try r.readString())
            let record = try GroupRecord(state: &r)
            // The engine finds a record by the id of its group; a record under another id would be
            // reached by one name and rewritten under the other.
            guard record.id == id else {
                throw TLSCodecError(.inconsistentState, "group entry \(id.hex) holds group \(record.id.hex)")
            }
            return (id, record)
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
}

func groupIDAscending(_ a: MLSGroupID, _ b: MLSGroupID) -> Bool { a.hex < b.hex }
