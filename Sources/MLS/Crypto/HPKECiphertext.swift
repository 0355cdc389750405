import TLSCodec

// struct {
//     opaque kem_output<V>;
//     opaque ciphertext<V>;
// } HPKECiphertext;
/// An HPKE-sealed message: the encapsulated key and the AEAD ciphertext.
public struct HPKECiphertext: TLSCodable, Hashable, Sendable {
    public var kemOutput: [UInt8]
    public var ciphertext: [UInt8]

    public init(kemOutput: [UInt8], ciphertext: [UInt8]) {
        self.kemOutput = kemOutput
        self.ciphertext = ciphertext
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(kemOutput)
        writer.writeOpaque(ciphertext)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        kemOutput = try reader.readOpaque()
        ciphertext = try reader.readOpaque()
    }
}
