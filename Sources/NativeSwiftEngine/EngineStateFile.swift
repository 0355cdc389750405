// The engine state file (docs/engine-state-format.md): everything a NativeSwiftEngine holds, so that
// a member whose process stops restarts exactly where it was. The bytes are read back as untrusted:
// every failure is an `EngineError` naming what is wrong, never a trap.
//
// struct {
//     opaque magic[8];                    // "MCENGINE"
//     uint16 version;                     // 2: a legacy engine's; 3: a current-profile engine's
//     select (version) {                  // (1, a legacy engine's with group records inline, is still read)
//         case 2: EngineState state;
//         case 3: CurrentEngineState state;
//     };                                  // and nothing after it
// } EngineStateFile;
//
// struct {
//     AccountKeyEntry account_keys<V>;    // ascending by public key
//     EngineState state;                  // exactly as in version 1
//     RoutingHistory routing_history<V>;  // ascending by MLS group id; only groups that rotated
// } CurrentEngineState;
//
// struct { opaque secret_key[32]; } AccountKeyEntry;   // the public key is derived from it
// struct { String mls_group_id; opaque previous_nostr_group_ids<V><V>; } RoutingHistory;   // oldest first
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
import Marmot
import Nostr
import TLSCodec

extension EngineError.Code {
    /// A state file that is not one this build can load: wrong magic, an unknown version, bytes
    /// that do not decode, or a state whose parts do not fit together.
    package static let invalidStateFile = Self("invalid_state_file")
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
    /// The profile the engine speaks. A legacy engine's file is version 1, byte for byte as before
    /// profiles existed; a current one's is version 2, so that a restart comes back current with
    /// the account keys its new leaves' identity proofs (0x8009) need.
    var profile: MarmotProfile = .legacy
    /// Current profile only: the account keys the engine signs identity proofs with.
    var accountKeys: [PublicKey: Keypair] = [:]
    /// Group entries that did not load (issue 30, N6).
    var unrecoverable: [MLSGroupID: UnrecoverableGroup] = [:]
}

/// The container: magic, version, body.
enum EngineStateFile {
    static let magic: [UInt8] = Array("MCENGINE".utf8)
    /// The version of a legacy engine's state (see the versioning rule in the doc): each group's
    /// record wrapped in its own length (issue 30, N6), so that a damaged one is skipped.
    static let legacyVersion: UInt16 = 2
    /// The version of a current-profile engine's state: version 2's body between the account keys
    /// and the routing history.
    static let currentProfileVersion: UInt16 = 3
    /// The first version, still read (group records inline, so one damaged record fails the whole
    /// file); never written.
    static let inlineRecordsVersion: UInt16 = 1
    /// Every version this build reads.
    static let readableVersions: Set<UInt16> = [inlineRecordsVersion, legacyVersion, currentProfileVersion]
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
        switch state.profile {
        case .legacy:
            writer.write(legacyVersion)
            try state.encode(to: &writer)
        case .current:
            writer.write(currentProfileVersion)
            try state.encodeCurrent(to: &writer)
        }
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
                .invalidStateFile,
                "unknown version \(version): this build reads only versions \(inlineRecordsVersion) and \(legacyVersion) (legacy) "
                    + "and \(currentProfileVersion) (current profile)")
        }
        var reader = TLSReader(bytes[(magic.count + 2)...])
        do {
            let state =
                version == currentProfileVersion ? try EngineState(current: &reader) : try EngineState(from: &reader, version: version)
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
            guard inner.bytes.count <= EngineStateFile.maximumGroupRecordSize || !MarmotReceiverCheck.groupRecordCap.isOn else {
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
                case .failure(let failure):
                    // Without isolation (tests only) one damaged record fails the file, as version 1 did.
                    guard MarmotReceiverCheck.groupIsolation.isOn else {
                        throw TLSCodecError(.inconsistentState, "group \(id.hex): \(failure.reason)")
                    }
                    unrecoverable[id] = failure
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
        guard bytes.count <= EngineStateFile.maximumGroupRecordSize || !MarmotReceiverCheck.groupRecordCap.isOn else {
            return .failure(
                UnrecoverableGroup(
                    bytes: bytes, reason: "record of \(bytes.count) bytes, more than the cap of \(EngineStateFile.maximumGroupRecordSize)"))
        }
        var r = TLSReader(bytes)
        do {
            let record = try GroupRecord(state: &r, wrapped: true)
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

extension EngineState {
    func encodeCurrent(to writer: inout TLSWriter) throws(EngineError) {
        writer.writeMap(accountKeys, by: <) { w, _, keypair in w.writeBytes(keypair.secretKey.bytes) }
        try encode(to: &writer)
        let rotated = groups.filter { !$0.value.previousNostrGroupIDs.isEmpty }
        writer.writeMap(rotated, by: groupIDAscending) { w, id, record in
            w.writeString(id.hex)
            w.writeVector { w in for previous in record.previousNostrGroupIDs { w.writeOpaque(previous) } }
        }
        // The current profile orders competing commits by committer account (boundary 7): a
        // rollback point that came back without its committer would let any competitor win.
        // Last, and only when a rollback point has one, so that every other file keeps its bytes.
        let ordered = EngineRecovery.persistsRollbackPoint ? groups.filter { $0.value.rollback?.committer != nil } : [:]
        if !ordered.isEmpty {
            writer.writeMap(ordered, by: groupIDAscending) { w, id, record in
                w.writeString(id.hex)
                w.writeOpaque(record.rollback?.committer ?? [])
                w.writeOptional(record.rollback?.rival?.committer) { w, committer in w.writeOpaque(committer) }
                w.write(UInt8(record.rollback?.witnessed == true ? 1 : 0))
            }
        }
    }

    /// A current-profile state: every group, stored Welcome and rollback point is read as a
    /// current-profile group, and the parts version 1 does not carry are restored (the routing
    /// history, and the image's media type, which the GroupContext's 0x8002 component holds).
    init(current reader: inout TLSReader) throws(TLSCodecError) {
        let keys: [PublicKey: Keypair] = try reader.readMap("account keys", by: <) { (r: inout TLSReader) throws(TLSCodecError) in
            let bytes = Array(try r.readBytes(32))
            let secret: SecretKey
            do throws(NostrError) { secret = try SecretKey(bytes: bytes) } catch {
                throw TLSCodecError(.invalidValue, "account key: \(error.description)")
            }
            let keypair = Keypair(secretKey: secret)
            return (keypair.publicKey, keypair)
        }
        try self.init(from: &reader, version: EngineStateFile.legacyVersion)
        profile = .current
        accountKeys = keys
        let history = try reader.readMap("routing history", by: groupIDAscending) { (r: inout TLSReader) throws(TLSCodecError) in
            let id = MLSGroupID(hex: try r.readString())
            let previous = try r.readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readOpaque() }
            guard !previous.isEmpty else { throw TLSCodecError(.inconsistentState, "routing history of \(id.hex) is empty") }
            return (id, previous)
        }
        for (id, previous) in history {
            guard groups[id] != nil else { throw TLSCodecError(.inconsistentState, "routing history of \(id.hex), a group not held") }
            groups[id]?.previousNostrGroupIDs = previous
        }
        if !reader.isAtEnd {
            let ordering = try reader.readMap("rollback ordering", by: groupIDAscending) { (r: inout TLSReader) throws(TLSCodecError) in
                let id = MLSGroupID(hex: try r.readString())
                let committer = try r.readOpaque()
                let rival = try r.readOptional { (r: inout TLSReader) throws(TLSCodecError) in try r.readOpaque() }
                let witnessed = try r.readUInt8()
                guard witnessed <= 1 else { throw TLSCodecError(.invalidValue, "witnessed flag \(witnessed)") }
                return (id, (committer: committer, rival: rival, witnessed: witnessed == 1))
            }
            guard !ordering.isEmpty else { throw TLSCodecError(.inconsistentState, "an empty rollback ordering written out") }
            for (id, entry) in ordering {
                guard var point = groups[id]?.rollback, entry.rival == nil || point.rival != nil else {
                    throw TLSCodecError(.inconsistentState, "rollback ordering of \(id.hex), which holds no such rollback point")
                }
                point.committer = entry.committer
                point.rival?.committer = entry.rival
                point.witnessed = entry.witnessed
                groups[id]?.rollback = point
            }
        }
        for id in Array(groups.keys) {
            guard var record = groups[id] else { continue }
            record.profile = .current
            record.data = try Self.currentData(record.data, of: record.mls)
            if var point = record.rollback {
                point.data = try Self.currentData(point.data, of: point.mls)
                record.rollback = point
            }
            groups[id] = record
        }
        for id in Array(welcomes.keys) {
            guard var welcome = welcomes[id] else { continue }
            welcome.data = try Self.currentData(welcome.data, of: welcome.group)
            welcomes[id] = welcome
        }
    }

    /// `stored` with what only the GroupContext of a current-profile `group` holds (the image's
    /// media type); a context that does not read as a current-profile group is an inconsistent state.
    static func currentData(_ stored: GroupData, of group: Group) throws(TLSCodecError) -> GroupData {
        let read: GroupData
        do { read = try GroupData.current(group.context.extensions) } catch {
            throw TLSCodecError(.inconsistentState, "a current-profile group whose context does not read: \(error.reason)")
        }
        var data = stored
        data.imageMediaType = stored.imageHash == read.imageHash ? read.imageMediaType : nil
        return data
    }
}
