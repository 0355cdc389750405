import TLSCodec

// struct {
//     ProposalType proposal_type;
//     select (Proposal.proposal_type) {
//         case add:                      Add;            // KeyPackage key_package;
//         case update:                   Update;         // LeafNode leaf_node;
//         case remove:                   Remove;         // uint32 removed;
//         case psk:                      PreSharedKey;   // PreSharedKeyID psk;
//         case reinit:                   ReInit;
//         case external_init:            ExternalInit;   // opaque kem_output<V>;
//         case group_context_extensions: GroupContextExtensions; // Extension extensions<V>;
//         case self_remove:              SelfRemove;     // struct {} (MLS extensions draft, 0x000a)
//         case app_data_update:          AppDataUpdate;  // (MLS extensions draft, 0x0008)
//     };
// } Proposal;
//
// struct {
//     opaque group_id<V>;
//     ProtocolVersion version;
//     CipherSuite cipher_suite;
//     Extension extensions<V>;
// } ReInit;
/// A proposed change to the group.
public enum Proposal: TLSCodable, Hashable, Sendable {
    case add(KeyPackage)
    case update(LeafNode)
    case remove(leaf: UInt32)
    case preSharedKey(PreSharedKeyID)
    case reInit(groupID: [UInt8], version: UInt16, cipherSuite: UInt16, extensions: [Extension])
    case externalInit(kemOutput: [UInt8])
    case groupContextExtensions([Extension])
    case selfRemove
    /// Changes one entry of the GroupContext's app_data_dictionary (see ``AppDataUpdate``).
    case appDataUpdate(AppDataUpdate)

    /// ProposalType registry values.
    public enum Kind {
        public static let add: UInt16 = 1
        public static let update: UInt16 = 2
        public static let remove: UInt16 = 3
        public static let psk: UInt16 = 4
        public static let reInit: UInt16 = 5
        public static let externalInit: UInt16 = 6
        public static let groupContextExtensions: UInt16 = 7
        public static let selfRemove: UInt16 = 0x000a
        /// app_data_update, from the MLS extensions draft (the current Marmot profile).
        public static let appDataUpdate: UInt16 = 0x0008
        /// The types every implementation supports without advertising them (§7.2).
        public static let defaults: Set<UInt16> = [1, 2, 3, 4, 5, 6, 7]
    }

    public var type: UInt16 {
        switch self {
        case .add: Kind.add
        case .update: Kind.update
        case .remove: Kind.remove
        case .preSharedKey: Kind.psk
        case .reInit: Kind.reInit
        case .externalInit: Kind.externalInit
        case .groupContextExtensions: Kind.groupContextExtensions
        case .selfRemove: Kind.selfRemove
        case .appDataUpdate: Kind.appDataUpdate
        }
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(type)
        encodeBody(to: &writer)
    }

    /// Writes the select arm only (the struct named by the proposal type, e.g. `Add`).
    public func encodeBody(to writer: inout TLSWriter) {
        switch self {
        case .add(let keyPackage): writer.write(keyPackage)
        case .update(let leaf): writer.write(leaf)
        case .remove(let leaf): writer.write(leaf)
        case .preSharedKey(let psk): writer.write(psk)
        case .reInit(let groupID, let version, let cipherSuite, let extensions):
            writer.writeOpaque(groupID)
            writer.write(version)
            writer.write(cipherSuite)
            writer.writeVector(extensions)
        case .externalInit(let kemOutput): writer.writeOpaque(kemOutput)
        case .groupContextExtensions(let extensions): writer.writeVector(extensions)
        case .selfRemove: break
        case .appDataUpdate(let update): writer.write(update)
        }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        self = try Self.decodeBody(type: try reader.readUInt16(), from: &reader)
    }

    /// Reads the select arm for proposal type `type`.
    public static func decodeBody(type: UInt16, from reader: inout TLSReader) throws(TLSCodecError) -> Proposal {
        let proposal: Proposal
        switch type {
        case Kind.add: proposal = .add(try reader.read())
        case Kind.update: proposal = .update(try reader.read())
        case Kind.remove: proposal = .remove(leaf: try reader.readUInt32())
        case Kind.psk: proposal = .preSharedKey(try reader.read())
        case Kind.reInit:
            proposal = .reInit(
                groupID: try reader.readOpaque(), version: try reader.readUInt16(), cipherSuite: try reader.readUInt16(),
                extensions: try reader.readExtensions())
        case Kind.externalInit: proposal = .externalInit(kemOutput: try reader.readOpaque())
        case Kind.groupContextExtensions: proposal = .groupContextExtensions(try reader.readExtensions())
        case Kind.selfRemove: proposal = .selfRemove
        case Kind.appDataUpdate: proposal = .appDataUpdate(try reader.read())
        case let other: throw unknownValue("proposal type", other)
        }
        return proposal
    }

    /// MakeProposalRef: RefHash("MLS 1.0 Proposal Reference", AuthenticatedContent).
    public static func reference(suite: CipherSuite, authenticatedContent: [UInt8]) -> [UInt8] {
        suite.refHash(label: "MLS 1.0 Proposal Reference", value: authenticatedContent)
    }
}

// struct {
//     ProposalOrRefType type;   // proposal(1), reference(2)
//     select (ProposalOrRef.type) {
//         case proposal:  Proposal proposal;
//         case reference: ProposalRef reference;   // opaque HashReference<V>
//     };
// } ProposalOrRef;
/// A proposal carried inline in a commit, or a reference to one sent earlier.
public enum ProposalOrRef: TLSCodable, Hashable, Sendable {
    case proposal(Proposal)
    case reference([UInt8])

    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .proposal(let proposal):
            writer.write(UInt8(1))
            writer.write(proposal)
        case .reference(let ref):
            writer.write(UInt8(2))
            writer.writeOpaque(ref)
        }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        switch try reader.readUInt8() {
        case 1: self = .proposal(try reader.read())
        case 2: self = .reference(try reader.readOpaque())
        case let other: throw unknownValue("proposal-or-ref type", other)
        }
    }
}
