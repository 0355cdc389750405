import ErrorCodes
import MLS
import Nostr

extension MarmotError.Code {
    /// An application message whose inner rumor is not valid rumor JSON.
    package static let invalidRumor = Self("message.invalidRumor")
    /// An inner rumor whose pubkey is not the MLS sender's credential identity.
    package static let authorMismatch = Self("message.authorMismatch")
}

/// MIP-03 application messages: the MLS application data is the UTF-8 JSON of an unsigned Nostr
/// event (`id` included, no `sig`) whose author must be the MLS sender.
package enum ApplicationRumor {
    package static func encode(_ rumor: UnsignedEvent) -> [UInt8] { Array(rumor.rumorJSON().utf8) }

    /// Decodes the rumor and checks it against the sender's credential.
    /// - Throws: `.invalidRumor`, `.authorMismatch`.
    package static func open(_ data: [UInt8], sender credential: Credential?) throws(MarmotError) -> UnsignedEvent {
        let text: String
        if let valid = String(validating: data, as: UTF8.self) {
            text = valid
        } else if MarmotReceiverCheck.rumorUTF8.isOn {
            throw MarmotError(.invalidRumor, "application data is not UTF-8")
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        let rumor: UnsignedEvent
        do { rumor = try UnsignedEvent(rumorJSON: text) } catch { throw MarmotError(.invalidRumor, error.reason) }
        guard credential == .basic(identity: rumor.pubkey.bytes) || !MarmotReceiverCheck.rumorAuthor.isOn else {
            throw MarmotError(.authorMismatch, "rumor author \(rumor.pubkey.hex) is not the MLS sender")
        }
        return rumor
    }

    /// The Nostr identity of a Marmot member's credential.
    package static func identity(of credential: Credential) -> PublicKey? {
        guard case .basic(let bytes) = credential else { return nil }
        return try? PublicKey(bytes: bytes)
    }
}
