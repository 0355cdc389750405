import Crypto
import ErrorCodes

extension MarmotError.Code {
    /// A kind-445 content that does not open under the given key.
    package static let undecryptable = Self("groupEvent.undecryptable")
}

// kind-445 content (MDK 0.8.0): base64( nonce[12] ‖ ChaCha20-Poly1305(key, nonce, aad = "", MLSMessage) ‖ tag[16] )
/// The outer encryption of kind-445 group events.
package enum GroupEventCipher {
    package static let nonceLength = 12
    static let tagLength = 16

    /// Encrypts a TLS MLSMessage with a nonce drawn from `generator`; returns the event content.
    package static func seal(
        _ message: [UInt8], key: [UInt8], using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> String {
        let nonce = (0..<nonceLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return try seal(message, key: key, nonce: nonce)
    }

    /// Encrypts with an explicit nonce (the deterministic core of `seal(_:key:using:)`).
    package static func seal(_ message: [UInt8], key: [UInt8], nonce: [UInt8]) throws(MarmotError) -> String {
        do {
            let box = try ChaChaPoly.seal(
                message, using: SymmetricKey(data: key), nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: [UInt8]())
            return Base64Content.encode(nonce + Array(box.ciphertext) + Array(box.tag))
        } catch {
            throw MarmotError(.undecryptable, "ChaCha20-Poly1305 seal failed: \(error)")
        }
    }

    /// Decrypts an event content back to the TLS MLSMessage bytes.
    /// - Throws: `.invalidBase64`, `.undecryptable`.
    package static func open(_ content: String, key: [UInt8]) throws(MarmotError) -> [UInt8] {
        let bytes = try Base64Content.decode(content)
        guard bytes.count >= nonceLength + tagLength || !MarmotReceiverCheck.groupEventLength.isOn else {
            throw MarmotError(.undecryptable, "content of \(bytes.count) bytes is shorter than nonce and tag")
        }
        // Split as far as the bytes go (the same split for any content long enough), so that with
        // the length check switched off (tests only) a short content reaches the AEAD, never a trap.
        let nonceEnd = min(nonceLength, bytes.count)
        let tagStart = max(nonceEnd, bytes.count - tagLength)
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: try ChaChaPoly.Nonce(data: bytes[..<nonceEnd]), ciphertext: bytes[nonceEnd..<tagStart],
                tag: bytes[tagStart...])
            return Array(try ChaChaPoly.open(box, using: SymmetricKey(data: key), authenticating: [UInt8]()))
        } catch {
            throw MarmotError(.undecryptable, "ChaCha20-Poly1305 open failed")
        }
    }
}
