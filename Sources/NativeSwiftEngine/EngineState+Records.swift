// The engine's own records in the state file (docs/engine-state-format.md); the MLS group state
// inside them is MLS's GroupState (Sources/MLS/Persistence/Group+Persistence.swift).
//
// opaque String<V>;                       // UTF-8, checked on reading
// opaque EventID[32];
// opaque PublicKey[32];                   // an x-only secp256k1 key, checked on reading
//
// struct {
//     GroupState mls;
//     GroupDataState data;
//     String state;                       // "active", "inactive", "pending", "disbanded"
//     optional<GroupState> pending;       // our staged commit's next epoch
//     optional<PendingEvent> pending_event;
//     PastEpoch past_epochs<V>;           // ascending by epoch
//     EpochEnd epoch_ends<V>;             // ascending by epoch
//     optional<RollbackPointState> rollback;
//     ReceivedMessageState messages<V>;   // in the order received
//     EventID processed<V>;               // ascending
//     EventID failed<V>;                  // ascending
//     OwnEventEntry own_events<V>;        // ascending by event id
//     EventID superseded<V>;              // ascending; only when not empty or payloads follow,
//                                         // and only in a wrapped record (versions 2 and 3): absent = empty
//     ReceivedMessageState invalidated<V>; // boundary 7, only when this or the next is not empty:
//     EventID branch_messages<V>;         // the rollback point's branch messages (rumor ids), in order
// } GroupRecordState;
//
// struct { EventID id; uint64 created_at; } PendingEvent;
// struct { uint64 epoch; GroupState group; } PastEpoch;
// struct { uint64 epoch; uint64 ended_at; } EpochEnd;
//
// struct {
//     GroupState mls; GroupDataState data; PastEpoch past_epochs<V>; String state;
//     uint64 created_at; EventID event_id;
//     optional<RivalBranchState> rival;
// } RollbackPointState;
// struct { GroupState mls; uint64 created_at; EventID event_id; } RivalBranchState;
//
// enum { message(1), commit(2), proposal(3), forgery(4), (255) } OwnEventType;
// struct {
//     EventID id;
//     OwnEventType type;
//     select (type) { case message: ReceivedMessageState message; default: struct{}; };
// } OwnEventEntry;
//
// struct { String mls_group_id; UnsignedEventState rumor; EventID wrapper_id; PublicKey sender; } ReceivedMessageState;
// struct { PublicKey pubkey; uint64 created_at; uint16 kind; String tags<V><V>; String content; } UnsignedEventState;
//
// struct {
//     uint16 version; opaque nostr_group_id<V>; String name; String description;
//     PublicKey admins<V>; String relays<V>;
//     optional<opaque> image_hash<V>; optional<opaque> image_key<V>;
//     optional<opaque> image_nonce<V>; optional<opaque> image_upload_key<V>;
// } GroupDataState;                       // as held, not the 0xF2EE wire form (absent ≠ empty here)
//
// struct { PendingWelcomeState summary; UnsignedEventState rumor; GroupState group; GroupDataState data; } StoredWelcomeState;
// struct {
//     EventID id; EventID wrapper_id; String mls_group_id; String group_name; String group_description;
//     PublicKey group_admins<V>; String group_relays<V>; PublicKey welcomer; uint32 member_count;
// } PendingWelcomeState;
import EngineInterface
import MLS
import Marmot
import Nostr
import TLSCodec

extension GroupRecord {
    func encodeState(to w: inout TLSWriter) {
        mls.encodeState(to: &w)
        data.encodeState(to: &w)
        w.writeString(state.rawValue)
        w.writeOptional(pending) { w, group in group.encodeState(to: &w) }
        w.writeOptional(pendingEvent) { w, event in
            w.writeEventID(event.id)
            w.write(event.createdAt)
        }
        w.writePastEpochs(pastEpochs)
        w.writeMap(epochEnds, by: <) { w, epoch, end in
            w.write(epoch)
            w.write(end)
        }
        w.writeOptional(EngineRecovery.persistsRollbackPoint ? rollback : nil) { w, point in point.encodeState(to: &w) }
        w.writeVector { w in for message in messages { message.encodeState(to: &w) } }
        w.writeEventIDs(processed)
        w.writeEventIDs(failed)
        w.writeMap(ownEvents, by: <) { w, id, own in
            w.writeEventID(id)
            own.encodeState(to: &w)
        }
        // Last and only when there is one, so that every record without one keeps its bytes.
        let branchMessages = EngineRecovery.persistsRollbackPoint ? rollback?.branchMessages ?? [] : []
        let payloads = !invalidated.isEmpty || !branchMessages.isEmpty
        if !superseded.isEmpty || payloads { w.writeEventIDs(superseded) }
        // Then, only when there are some, the payloads of boundary 7: the messages a branch switch
        // invalidated and those delivered on the branch of the commit applied last.
        if payloads {
            w.writeVector { w in for message in invalidated { message.encodeState(to: &w) } }
            w.writeVector { w in for id in branchMessages { w.writeEventID(id) } }
        }
    }

    /// `wrapped`: the record is alone in its own length (versions 2 and 3), so bytes left after
    /// the own events are the superseded commits; a version-1 record has none.
    init(state r: inout TLSReader, wrapped: Bool = false) throws(TLSCodecError) {
        let mls = try Group(state: &r)
        let data = try GroupData(state: &r)
        let state = GroupSnapshot.State(rawValue: try r.readString())
        guard [.active, .inactive, .pending, .disbanded].contains(state) else {
            throw TLSCodecError(.invalidValue, "group state \"\(state.rawValue)\"")
        }
        let pending = try r.readOptional { (r: inout TLSReader) throws(TLSCodecError) in try Group(state: &r) }
        let pendingEvent = try r.readOptional { (r: inout TLSReader) throws(TLSCodecError) in
            (id: try r.readEventID(), createdAt: try r.readUInt64())
        }
        // `pending` clears `pendingEvent` when it goes: an event without its commit is not a state we hold.
        guard pending != nil || pendingEvent == nil else {
            throw TLSCodecError(.inconsistentState, "a pending commit event without the pending commit")
        }
        let pastEpochs = try r.readPastEpochs()
        let epochEnds = try r.readMap("epoch ends", by: <) { (r: inout TLSReader) throws(TLSCodecError) in
            (try r.readUInt64(), try r.readUInt64())
        }
        let rollback = try r.readOptional { (r: inout TLSReader) throws(TLSCodecError) in try RollbackPoint(state: &r) }
        let messages = try r.readVector { (r: inout TLSReader) throws(TLSCodecError) in try ReceivedMessage(state: &r) }
        let processed = try r.readEventIDs("processed events")
        let failed = try r.readEventIDs("failed events")
        let ownEvents = try r.readMap("own events", by: <) { (r: inout TLSReader) throws(TLSCodecError) in
            (try r.readEventID(), try OwnEvent(state: &r))
        }
        var superseded: Set<EventID> = []
        var invalidated: [ReceivedMessage] = []
        var branchMessages: [EventID] = []
        if wrapped, !r.isAtEnd {
            superseded = try r.readEventIDs("superseded events")
            if !r.isAtEnd {
                invalidated = try r.readVector { (r: inout TLSReader) throws(TLSCodecError) in try ReceivedMessage(state: &r) }
                branchMessages = try r.readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readEventID() }
                guard !invalidated.isEmpty || !branchMessages.isEmpty else {
                    throw TLSCodecError(.inconsistentState, "empty boundary-7 payload lists written out")
                }
                guard rollback != nil || branchMessages.isEmpty else {
                    throw TLSCodecError(.inconsistentState, "branch messages without a rollback point")
                }
            } else {
                // Absent means empty: an empty list written out would be a second encoding of one state.
                guard !superseded.isEmpty else { throw TLSCodecError(.inconsistentState, "an empty superseded list written out") }
            }
        }
        for group in [pending].compactMap({ $0 }) + Array(pastEpochs.values) + [rollback?.mls].compactMap({ $0 })
        where group.groupID != mls.groupID {
            throw TLSCodecError(.inconsistentState, "a record of group \(mls.groupID) holds a state of group \(group.groupID)")
        }
        var point = rollback
        point?.branchMessages = branchMessages
        self.init(
            mls: mls, data: data, state: state, pending: pending, pendingEvent: pendingEvent, pastEpochs: pastEpochs,
            epochEnds: epochEnds, rollback: point, messages: messages, processed: processed, failed: failed,
            superseded: superseded, invalidated: invalidated, ownEvents: ownEvents)
    }
}

extension RollbackPoint {
    func encodeState(to w: inout TLSWriter) {
        mls.encodeState(to: &w)
        data.encodeState(to: &w)
        w.writePastEpochs(pastEpochs)
        w.writeString(state.rawValue)
        w.write(createdAt)
        w.writeEventID(eventID)
        // The competitor kept beside this state (NativeSwiftEngine+RivalBranch.swift): without it a
        // restarted member could no longer follow the branch the group built on.
        w.writeOptional(rival) { w, rival in
            rival.mls.encodeState(to: &w)
            w.write(rival.createdAt)
            w.writeEventID(rival.eventID)
        }
    }

    init(state r: inout TLSReader) throws(TLSCodecError) {
        mls = try Group(state: &r)
        data = try GroupData(state: &r)
        pastEpochs = try r.readPastEpochs()
        state = GroupSnapshot.State(rawValue: try r.readString())
        createdAt = try r.readUInt64()
        eventID = try r.readEventID()
        rival = try r.readOptional { (r: inout TLSReader) throws(TLSCodecError) in
            RivalBranch(mls: try Group(state: &r), createdAt: try r.readUInt64(), eventID: try r.readEventID())
        }
        if let rival, rival.mls.groupID != mls.groupID {
            throw TLSCodecError(
                .inconsistentState, "a rollback point of group \(mls.groupID) keeps a competitor of group \(rival.mls.groupID)")
        }
    }
}

extension OwnEvent {
    func encodeState(to w: inout TLSWriter) {
        switch self {
        case .message(let message):
            w.write(UInt8(1))
            message.encodeState(to: &w)
        case .commit: w.write(UInt8(2))
        case .proposal: w.write(UInt8(3))
        case .forgery: w.write(UInt8(4))
        }
    }

    init(state r: inout TLSReader) throws(TLSCodecError) {
        switch try r.readUInt8() {
        case 1: self = .message(try ReceivedMessage(state: &r))
        case 2: self = .commit
        case 3: self = .proposal
        case 4: self = .forgery
        case let other: throw TLSCodecError(.invalidValue, "own event type \(other)")
        }
    }
}

extension ReceivedMessage {
    func encodeState(to w: inout TLSWriter) {
        w.writeString(mlsGroupID.hex)
        rumor.encodeState(to: &w)
        w.writeEventID(wrapperID)
        w.writePublicKey(sender)
    }

    init(state r: inout TLSReader) throws(TLSCodecError) {
        self.init(
            mlsGroupID: MLSGroupID(hex: try r.readString()), rumor: try UnsignedEvent(state: &r), wrapperID: try r.readEventID(),
            sender: try r.readPublicKey())
    }
}

extension UnsignedEvent {
    func encodeState(to w: inout TLSWriter) {
        w.writePublicKey(pubkey)
        w.write(createdAt)
        w.write(kind.rawValue)
        w.writeVector { w in for tag in tags { w.writeStrings(tag) } }
        w.writeString(content)
    }

    init(state r: inout TLSReader) throws(TLSCodecError) {
        self.init(
            pubkey: try r.readPublicKey(), createdAt: try r.readUInt64(), kind: Kind(rawValue: try r.readUInt16()),
            tags: try r.readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readStrings() },
            content: try r.readString())
    }
}

extension GroupData {
    func encodeState(to w: inout TLSWriter) {
        w.write(version)
        w.writeOpaque(nostrGroupID)
        w.writeString(name)
        w.writeString(description)
        w.writeVector { w in for admin in admins { w.writePublicKey(admin) } }
        w.writeStrings(relays)
        for field in [imageHash, imageKey, imageNonce, imageUploadKey] {
            w.writeOptional(field) { w, bytes in w.writeOpaque(bytes) }
        }
    }

    init(state r: inout TLSReader) throws(TLSCodecError) {
        func optionalBytes() throws(TLSCodecError) -> [UInt8]? {
            try r.readOptional { (r: inout TLSReader) throws(TLSCodecError) in try r.readOpaque() }
        }
        self.init(
            version: try r.readUInt16(), nostrGroupID: try r.readOpaque(), name: try r.readString(),
            description: try r.readString(),
            admins: try r.readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readPublicKey() },
            relays: try r.readStrings(), imageHash: try optionalBytes(), imageKey: try optionalBytes(),
            imageNonce: try optionalBytes(), imageUploadKey: try optionalBytes())
    }
}

extension StoredWelcome {
    func encodeState(to w: inout TLSWriter) {
        summary.encodeState(to: &w)
        rumor.encodeState(to: &w)
        group.encodeState(to: &w)
        data.encodeState(to: &w)
    }

    init(state r: inout TLSReader) throws(TLSCodecError) {
        summary = try PendingWelcome(state: &r)
        rumor = try UnsignedEvent(state: &r)
        group = try Group(state: &r)
        data = try GroupData(state: &r)
    }
}

extension PendingWelcome {
    func encodeState(to w: inout TLSWriter) {
        w.writeEventID(id)
        w.writeEventID(wrapperID)
        w.writeString(mlsGroupID.hex)
        w.writeString(groupName)
        w.writeString(groupDescription)
        w.writeVector { w in for admin in groupAdmins { w.writePublicKey(admin) } }
        w.writeStrings(groupRelays)
        w.writePublicKey(welcomer)
        // A member count is bounded by the tree's 32-bit leaf indices.
        w.write(UInt32(clamping: memberCount))
    }

    init(state r: inout TLSReader) throws(TLSCodecError) {
        self.init(
            id: try r.readEventID(), wrapperID: try r.readEventID(), mlsGroupID: MLSGroupID(hex: try r.readString()),
            groupName: try r.readString(), groupDescription: try r.readString(),
            groupAdmins: try r.readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readPublicKey() },
            groupRelays: try r.readStrings(), welcomer: try r.readPublicKey(), memberCount: Int(try r.readUInt32()))
    }
}

// MARK: - The scalar types

extension TLSWriter {
    mutating func writeString(_ value: String) { writeOpaque(Array(value.utf8)) }
    mutating func writeStrings(_ values: [String]) { writeVector { w in for value in values { w.writeString(value) } } }
    mutating func writeEventID(_ id: EventID) { writeBytes(id.bytes) }
    mutating func writePublicKey(_ key: PublicKey) { writeBytes(key.bytes) }

    mutating func writeEventIDs(_ ids: Set<EventID>) {
        writeVector { w in for id in ids.sorted() { w.writeEventID(id) } }
    }

    mutating func writePastEpochs(_ epochs: [UInt64: Group]) {
        writeMap(epochs, by: <) { w, epoch, group in
            w.write(epoch)
            group.encodeState(to: &w)
        }
    }
}

extension TLSReader {
    mutating func readString() throws(TLSCodecError) -> String {
        let bytes = try readOpaque()
        guard let value = String(validating: bytes, as: UTF8.self) else {
            throw TLSCodecError(.invalidValue, "a string of \(bytes.count) bytes is not UTF-8")
        }
        return value
    }

    mutating func readStrings() throws(TLSCodecError) -> [String] {
        try readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readString() }
    }

    mutating func readEventID() throws(TLSCodecError) -> EventID {
        let bytes = Array(try readBytes(32))
        do { return try EventID(bytes: bytes) } catch { throw TLSCodecError(.invalidValue, error.description) }
    }

    mutating func readPublicKey() throws(TLSCodecError) -> PublicKey {
        let bytes = Array(try readBytes(32))
        do { return try PublicKey(bytes: bytes) } catch { throw TLSCodecError(.invalidValue, error.description) }
    }

    mutating func readEventIDs(_ what: String) throws(TLSCodecError) -> Set<EventID> {
        let ids = try readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readEventID() }
        for (earlier, later) in zip(ids, ids.dropFirst()) where !(earlier < later) {
            throw TLSCodecError(.inconsistentState, "\(what): ids are not strictly ascending")
        }
        return Set(ids)
    }

    mutating func readPastEpochs() throws(TLSCodecError) -> [UInt64: Group] {
        try readMap("past epochs", by: <) { (r: inout TLSReader) throws(TLSCodecError) in
            let epoch = try r.readUInt64()
            let group = try Group(state: &r)
            guard group.epoch == epoch else {
                throw TLSCodecError(.inconsistentState, "past epoch \(epoch) holds the group at epoch \(group.epoch)")
            }
            return (epoch, group)
        }
    }
}
