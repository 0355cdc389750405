import TLSCodec

// struct {
//     opaque cert_data<V>;
// } Certificate;
//
// struct {
//     CredentialType credential_type;
//     select (Credential.credential_type) {
//         case basic:
//             opaque identity<V>;
//         case x509:
//             Certificate certificates<V>;
//     };
// } Credential;
/// A member's identity claim.
public enum Credential: TLSCodable, Hashable, Sendable {
    case basic(identity: [UInt8])
    case x509(certificates: [[UInt8]])

    public static let basicType: UInt16 = 1
    public static let x509Type: UInt16 = 2

    public var type: UInt16 {
        switch self {
        case .basic: Self.basicType
        case .x509: Self.x509Type
        }
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(type)
        switch self {
        case .basic(let identity): writer.writeOpaque(identity)
        case .x509(let certificates): writer.writeVector { w in for c in certificates { w.writeOpaque(c) } }
        }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        switch try reader.readUInt16() {
        case Self.basicType: self = .basic(identity: try reader.readOpaque())
        case Self.x509Type:
            self = .x509(
                certificates: try reader.readVector { (r: inout TLSReader) throws(TLSCodecError) in
                    try r.readOpaque()
                })
        case let other: throw unknownValue("credential type", other)
        }
    }
}
