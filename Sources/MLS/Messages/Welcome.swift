import TLSCodec

// struct {
//     opaque path_secret<V>;
// } PathSecret;
//
// struct {
//     opaque joiner_secret<V>;
//     optional<PathSecret> path_secret;
//     PreSharedKeyID psks<V>;
// } GroupSecrets;
/// The secrets sealed to each new member in a Welcome.
public struct GroupSecrets: TLSCodable, Hashable, Sendable {
    // Secrets: readable inside this package only.
    package var joinerSecret: [UInt8]
    package var pathSecret: [UInt8]?
    public var psks: [PreSharedKeyID]

    public init(joinerSecret: [UInt8], pathSecret: [UInt8]?, psks: [PreSharedKeyID]) {
        self.joinerSecret = joinerSecret
        self.pathSecret = pathSecret
        self.psks = psks
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(joinerSecret)
        writer.writeOptional(pathSecret) { w, v in w.writeOpaque(v) }
        writer.writeVector(psks)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        joinerSecret = try reader.readOpaque()
        pathSecret = try reader.readOptional { (r: inout TLSReader) throws(TLSCodecError) in try r.readOpaque() }
        psks = try reader.readVector(of: PreSharedKeyID.self)
    }
}

// struct {
//     KeyPackageRef new_member;
//     HPKECiphertext encrypted_group_secrets;
// } EncryptedGroupSecrets;
/// GroupSecrets sealed to one key package.
public struct EncryptedGroupSecrets: TLSCodable, Hashable, Sendable {
    public var newMember: [UInt8]
    public var encryptedGroupSecrets: HPKECiphertext

    public init(newMember: [UInt8], encryptedGroupSecrets: HPKECiphertext) {
        self.newMember = newMember
        self.encryptedGroupSecrets = encryptedGroupSecrets
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(newMember)
        writer.write(encryptedGroupSecrets)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        newMember = try reader.readOpaque()
        encryptedGroupSecrets = try reader.read()
    }
}

// struct {
//     CipherSuite cipher_suite;
//     EncryptedGroupSecrets secrets<V>;
//     opaque encrypted_group_info<V>;
// } Welcome;
/// The message that lets new members join an epoch.
public struct Welcome: TLSCodable, Hashable, Sendable {
    public var cipherSuite: UInt16
    public var secrets: [EncryptedGroupSecrets]
    public var encryptedGroupInfo: [UInt8]

    public init(cipherSuite: UInt16, secrets: [EncryptedGroupSecrets], encryptedGroupInfo: [UInt8]) {
        self.cipherSuite = cipherSuite
        self.secrets = secrets
        self.encryptedGroupInfo = encryptedGroupInfo
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(cipherSuite)
        writer.writeVector(secrets)
        writer.writeOpaque(encryptedGroupInfo)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        cipherSuite = try reader.readUInt16()
        secrets = try reader.readVector(of: EncryptedGroupSecrets.self)
        encryptedGroupInfo = try reader.readOpaque()
    }
}
