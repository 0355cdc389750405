import ErrorCodes
import MLS
import Nostr
import TLSCodec

extension MarmotError.Code {
    /// A kind-444 rumor whose kind, tags or content break MIP-02.
    package static let invalidWelcome = Self("welcome.invalid")
}

// MIP-02 welcome rumor (unsigned, NIP-59 gift-wrapped by the caller):
//   kind 444, pubkey = committer, content = base64(TLS MLSMessage{version, wire_format 3, Welcome})
//   ["relays", url…]  ["e", <invitee key-package event id>]  ["client", name]  ["encoding", "base64"]
/// Building and parsing MIP-02 welcome rumors.
package enum WelcomeRumor {
    /// The rumor carrying `welcome` to the author of `keyPackageEvent`.
    package static func make(
        welcome: Welcome, committer: PublicKey, createdAt: UInt64, relays: [String], keyPackageEvent: EventID,
        client: String
    ) throws(MarmotError) -> UnsignedEvent {
        let bytes = try tlsEncoded(MLSMessage(body: .welcome(welcome)))
        return UnsignedEvent(
            pubkey: committer, createdAt: createdAt, kind: .welcome,
            tags: [["relays"] + relays, ["e", keyPackageEvent.hex], ["client", client], Base64Content.tag],
            content: Base64Content.encode(bytes))
    }

    /// What a valid welcome rumor carries.
    package struct Parsed: Hashable, Sendable {
        package let welcome: Welcome
        package let relays: [String]
        /// The id of the invitee key-package event the welcome answers.
        package let keyPackageEvent: String
    }

    /// Checks the rumor as MDK 0.8.0 does (kind, relays, non-empty `e`, base64 encoding, non-empty
    /// client when present) and decodes the MLS Welcome.
    /// - Throws: `.invalidWelcome`, `.invalidEncoding`, `.invalidBase64`.
    package static func parse(_ rumor: UnsignedEvent) throws(MarmotError) -> Parsed {
        guard rumor.kind == .welcome || !MarmotReceiverCheck.welcomeRumorKind.isOn else {
            throw MarmotError(.invalidWelcome, "kind \(rumor.kind) is not 444")
        }
        let relays = Array((rumor.tags.first { $0.first == "relays" } ?? []).dropFirst())
        let e = KeyPackageEvent.value(of: "e", in: rumor.tags)
        if MarmotReceiverCheck.welcomeRumorTags.isOn { try requireTags(rumor.tags, relays: relays, e: e) }
        return Parsed(welcome: try decodeWelcome(rumor.content), relays: relays, keyPackageEvent: e ?? "")
    }

    /// The Welcome in a rumor's content: base64 of a TLS MLSMessage of wire format mls_welcome
    /// and a supported version (both profiles frame it so).
    /// - Throws: `.invalidWelcome`, `.invalidBase64`.
    static func decodeWelcome(_ content: String) throws(MarmotError) -> Welcome {
        let message: MLSMessage
        do { message = try MLSMessage(tlsBytes: try Base64Content.decode(content)) } catch let error as MarmotError {
            throw error
        } catch {
            throw MarmotError(.invalidWelcome, "content is not a TLS MLSMessage: \(error)")
        }
        guard case .welcome(let welcome) = message.body else {
            throw MarmotError(.invalidWelcome, "MLSMessage wire format \(message.body.wireFormat) is not a Welcome")
        }
        do { try message.requireSupportedVersion() } catch { throw MarmotError(.invalidWelcome, error.description) }
        return welcome
    }

    /// MIP-02's required tags, as MDK 0.8.0 checks them.
    private static func requireTags(_ tags: [[String]], relays: [String], e: String?) throws(MarmotError) {
        guard !relays.isEmpty, relays.allSatisfy(RelayURL.isValid) else {
            throw MarmotError(.invalidWelcome, "relays tag needs at least one ws(s):// URL")
        }
        guard let e, !e.isEmpty else { throw MarmotError(.invalidWelcome, "missing e tag naming the key-package event") }
        if let client = tags.first(where: { $0.first == "client" }) {
            guard client.count >= 2, !client[1].isEmpty else { throw MarmotError(.invalidWelcome, "empty client tag") }
        }
        try Base64Content.requireTag(in: tags)
    }
}
