import Nostr

/// A corruption applied to events delivered to one member.
struct Tamper: Sendable {
    let member: String
    let kind: Kind
    let author: PublicKey
}

extension World {
    /// Rewrites the content (but not id or signature) of events of `kind` by `author` on their way
    /// to `member`: a relay or path that corrupts events, which the member must detect.
    package func tamper(deliveriesTo member: String, kind: Kind, author: PublicKey) {
        tampers.append(Tamper(member: member, kind: kind, author: author))
        record("fault", member, "tamper kind \(kind) by \(author.hex.prefix(8))")
    }

    func tampered(_ frame: String, to member: String) -> String {
        guard tampers.contains(where: { $0.member == member }),
            let outline = FrameOutline(frame), outline.subscription != nil,
            var event = outline.eventObject, let kind = event["kind"]?.uint64, let pubkey = event["pubkey"]?.string,
            tampers.contains(where: { $0.member == member && UInt64($0.kind.rawValue) == kind && $0.author.hex == pubkey }),
            let content = event["content"]?.string
        else { return frame }
        event["content"] = .string(content + " ")
        record("fault", member, "tampered kind \(kind) event by \(pubkey.prefix(8))")
        return JSONValue.array([outline.items[0], outline.items[1], .object(event)]).serialized()
    }
}
