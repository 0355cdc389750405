// The `inject` step: builds the event a scenario describes (crafted, or a copy of one a member
// published, altered), signs it, breaks it on request, and publishes it or hands it to one member.
import Nostr
import Simulation

extension StepInterpreter {
    mutating func inject(_ step: Step) throws {
        let f = try fields(step)
        let relay = try f.required("relay").string("relay")
        let to = try f["to"]?.string("to")
        var original: Event?
        if let copyNode = f["copy"] {
            let copy = try copyNode.fields(of: "copy", allowed: ["kind", "author", "nth"])
            let kind = try copy["kind"].map { Kind(rawValue: UInt16(try $0.integer("kind", in: 0...65535))) }
            let candidates = world.publishedEvents(kind: kind, by: try copy["author"]?.string("author"))
            if let nth = try copy["nth"]?.integer("nth", in: 1...1_000_000) {
                guard Int(nth) <= candidates.count else {
                    throw StepFailure(message: "inject: only \(candidates.count) published event(s) match the copy selector, not \(nth)")
                }
                original = candidates[Int(nth) - 1]
            } else {
                guard let last = candidates.last else { throw StepFailure(message: "inject: no published event matches the copy selector") }
                original = last
            }
        }
        let now = world.network.unixSeconds
        // A crafted event's pubkey is set by whoever signs it (loading guarantees a kind or a copy).
        let placeholder = UnsignedEvent(pubkey: try key(world.labels.first ?? ""), createdAt: now, kind: .metadata, content: "")
        var unsigned = original?.unsigned ?? placeholder
        if let k = try f["kind"]?.integer("kind", in: 0...65535) { unsigned.kind = Kind(rawValue: UInt16(k)) }
        if let content = try f["content"]?.string("content") { unsigned.content = content }
        // Named tags replace the copy's tags of the same name; a crafted event starts with none.
        if let tags = try f["tags"]?.tags("tags") {
            let names = Set(tags.map { $0[0] })
            unsigned.tags = unsigned.tags.filter { !names.contains($0.first ?? "") } + tags
        }
        if let name = try f["remove-tag"]?.string("remove-tag") {
            guard unsigned.tags.contains(where: { $0.first == name }) else {
                throw StepFailure(message: "inject: the event has no '\(name)' tag to remove")
            }
            unsigned.tags.removeAll { $0.first == name }
        }
        if let age = try f["age"]?.duration("age") {
            unsigned.createdAt = now - min(now, UInt64(age.milliseconds / 1_000))
        } else if original == nil {
            unsigned.createdAt = now
        }
        if let expiresIn = try f["expires-in"]?.duration("expires-in") {
            unsigned.tags.removeAll { $0.first == "expiration" }
            unsigned.tags.append(["expiration", String(now + UInt64(expiresIn.milliseconds / 1_000))])
        }
        let breakage: InjectRecipe.Breakage? = switch InjectBreakage(rawValue: try f["break"]?.string("break") ?? "") {
            case .signature: .signature
            case .id: .id
            case .content: .content
            case .createdAt: .createdAt
            case nil: nil
        }
        // A changed copy is re-signed by its author when that is a member's own key; a copy of a
        // one-time-key event (kind 445) gets a throwaway key, which looks the same on the wire.
        var signer = try f["author"]?.string("author")
        if signer == nil, let original, original.unsigned != unsigned {
            signer = world.labels.first { world.member($0)?.publicKey == original.pubkey }
        }
        let event: Event
        do {
            event = try world.makeEvent(InjectRecipe(original: original, unsigned: unsigned, signer: signer, breakage: breakage))
        } catch {
            throw StepFailure(message: "inject: could not build the event: \(error)")
        }
        log.append("  " + world.inject(event, relay: relay, to: to))
    }
}
