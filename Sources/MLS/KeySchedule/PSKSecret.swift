import ErrorCodes
import TLSCodec

extension MLSError.Code {
    /// A proposal or Welcome named a PSK this member does not have.
    public static let missingPSK = Self("mls.missingPSK")
}

/// A PSK identifier with the secret it names.
public struct ResolvedPSK: Hashable, Sendable {
    public var id: PreSharedKeyID
    public var secret: [UInt8]

    public init(id: PreSharedKeyID, secret: [UInt8]) {
        self.id = id
        self.secret = secret
    }
}

extension CipherSuite {
    // struct {
    //     PreSharedKeyID id;
    //     uint16 index;
    //     uint16 count;
    // } PSKLabel;
    //
    // psk_extracted_[i] = KDF.Extract(0, psk_[i])
    // psk_input_[i]     = ExpandWithLabel(psk_extracted_[i], "derived psk", PSKLabel, KDF.Nh)
    // psk_secret_[i]    = KDF.Extract(psk_input_[i], psk_secret_[i-1]),  psk_secret_[0] = 0
    /// The combined psk_secret of §8.4; all zeros when `psks` is empty.
    package func pskSecret(_ psks: [ResolvedPSK]) -> [UInt8] {
        let zero = [UInt8](repeating: 0, count: hashLength)
        var secret = zero
        for (index, psk) in psks.enumerated() {
            var label = TLSWriter()
            label.write(psk.id)
            label.write(UInt16(truncatingIfNeeded: index))
            label.write(UInt16(truncatingIfNeeded: psks.count))
            let extracted = extract(salt: zero, ikm: psk.secret)
            let input = expandWithLabel(secret: extracted, label: "derived psk", context: label.bytes, length: hashLength)
            secret = extract(salt: input, ikm: secret)
        }
        return secret
    }
}
