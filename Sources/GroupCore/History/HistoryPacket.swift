import Nostr

/// The last messages of a chat, sent by the admin whose commit added members, in the joiners'
/// first epoch: MLS gives a joiner no earlier epoch secrets, so without this a new member sees
/// nothing said before it came. The packet is the content of an inner rumor of kind 4453 (ours,
/// not a Marmot kind) carried in a kind-445 application message, so MLS authenticates the
/// sender and only members of that epoch (the joiners among them) can read it.
///
///     history  = "{" "\"v\":1," "\"for\":" "[" hex-pubkey *( "," hex-pubkey ) "]" ","
///                "\"messages\":" "[" [ rumor *( "," rumor ) ] "]" "}"
///     rumor    = the original chat message's NIP-59 rumor, unchanged:
///                {"id","pubkey","created_at","kind":9,"tags","content"}
///
/// `for` names the joiners: only they take the messages in (everyone else already saw what it
/// saw, and an admin must not be able to add to an existing member's history). Each rumor keeps
/// its original id, author and `created_at`, and its id must match its content (NIP-01), so a
/// receiver can deduplicate by id and notice an altered entry. It cannot notice a made-up one:
/// rumors carry no signature, so the joiner trusts the adding admin for what was said, as it
/// trusts the admin's role snapshot (docs/group-core.md, "History for new members").
struct HistoryPacket: Hashable, Sendable, Codable {
    static let kind: Kind = 4453

    /// The joiners the messages are for.
    var recipients: [PublicKey]
    /// The original rumors, oldest first.
    var messages: [UnsignedEvent]

    func json() -> String {
        var members: [String: JSONValue] = ["v": JSONValue(1)]
        members["for"] = .array(recipients.map { .string($0.hex) })
        // Each rumor as it was: re-parsing the object gives back the same id.
        members["messages"] = .array(
            messages.map { rumor in
                (try? JSONValue(parsing: rumor.rumorJSON())) ?? .null
            })
        return JSONValue.object(members).serialized()
    }

    /// Parses untrusted content. A packet is taken whole or not at all: one entry that does not
    /// parse, is not a chat message, or whose id does not match its content refuses it.
    init(json text: String) throws(CoreError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch { throw CoreError(.historyMalformed, "not JSON: \(error.reason)") }
        guard let object = value.object else { throw CoreError(.historyMalformed, "not a JSON object") }
        guard object["v"]?.int64 == 1 else { throw CoreError(.historyMalformed, "unknown version \(object["v"]?.serialized() ?? "none")") }
        guard let keys = object["for"]?.array, !keys.isEmpty else { throw CoreError(.historyMalformed, "missing or empty 'for'") }
        var recipients: [PublicKey] = []
        for key in keys {
            guard let recipient = key.string.flatMap({ try? PublicKey(hex: $0) }) else {
                throw CoreError(.historyMalformed, "'for' holds something that is not a public key")
            }
            recipients.append(recipient)
        }
        guard let entries = object["messages"]?.array else { throw CoreError(.historyMalformed, "missing 'messages'") }
        var messages: [UnsignedEvent] = []
        for (index, entry) in entries.enumerated() {
            let rumor: UnsignedEvent
            do {
                rumor = try UnsignedEvent(rumorJSON: entry.serialized())
            } catch  where error.code == .rumorIDMismatch {
                throw CoreError(.historyIDMismatch, "entry \(index): \(error.reason)")
            } catch {
                throw CoreError(.historyMalformed, "entry \(index) is not a rumor: \(error.reason)")
            }
            guard rumor.kind == .chatMessage else {
                throw CoreError(.historyMalformed, "entry \(index) is of kind \(rumor.kind), not a chat message")
            }
            messages.append(rumor)
        }
        self.recipients = recipients
        self.messages = messages
    }

    init(recipients: [PublicKey], messages: [UnsignedEvent]) {
        self.recipients = recipients
        self.messages = messages
    }
}

extension Kind {
    /// GroupCore's history for new members (inner rumors of kind-445 application messages).
    package static let joinerHistory: Kind = HistoryPacket.kind
}
