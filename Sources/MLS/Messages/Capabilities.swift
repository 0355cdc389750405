import TLSCodec

// struct {
//     ProtocolVersion versions<V>;
//     CipherSuite cipher_suites<V>;
//     ExtensionType extensions<V>;
//     ProposalType proposals<V>;
//     CredentialType credentials<V>;
// } Capabilities;
/// What a member supports; values are kept raw so GREASE and unknown entries survive round trips.
public struct Capabilities: TLSCodable, Hashable, Sendable {
    public var versions: [UInt16]
    public var cipherSuites: [UInt16]
    public var extensions: [UInt16]
    public var proposals: [UInt16]
    public var credentials: [UInt16]

    public init(
        versions: [UInt16] = [ProtocolVersion.mls10], cipherSuites: [UInt16] = [1], extensions: [UInt16] = [],
        proposals: [UInt16] = [], credentials: [UInt16] = [Credential.basicType]
    ) {
        self.versions = versions
        self.cipherSuites = cipherSuites
        self.extensions = extensions
        self.proposals = proposals
        self.credentials = credentials
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(versions)
        writer.writeVector(cipherSuites)
        writer.writeVector(extensions)
        writer.writeVector(proposals)
        writer.writeVector(credentials)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        versions = try reader.readVector(of: UInt16.self)
        cipherSuites = try reader.readVector(of: UInt16.self)
        extensions = try reader.readVector(of: UInt16.self)
        proposals = try reader.readVector(of: UInt16.self)
        credentials = try reader.readVector(of: UInt16.self)
    }
}

/// ProtocolVersion values (uint16).
public enum ProtocolVersion {
    public static let mls10: UInt16 = 1
}
