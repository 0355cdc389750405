import TLSCodec

// struct {
//     SignaturePublicKey signature_key;
//     Credential credential;
// } ExternalSender;
//
// ExternalSender external_senders<V>;   (extension 0x0005)
/// A party outside the group allowed to send proposals.
public struct ExternalSender: TLSCodable, Hashable, Sendable {
    public var signatureKey: [UInt8]
    public var credential: Credential

    public init(signatureKey: [UInt8], credential: Credential) {
        self.signatureKey = signatureKey
        self.credential = credential
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(signatureKey)
        writer.write(credential)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        signatureKey = try reader.readOpaque()
        credential = try reader.read()
    }
}

/// The body of the external_senders extension.
struct ExternalSenders: TLSCodable {
    var senders: [ExternalSender]
    func encode(to writer: inout TLSWriter) { writer.writeVector(senders) }
    init(from reader: inout TLSReader) throws(TLSCodecError) { senders = try reader.readVector(of: ExternalSender.self) }
}
