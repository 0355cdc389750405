// The `inject` step: builds the event a scenario describes (crafted, or a copy of one a member
// published, altered), signs it, breaks it on request, and publishes it or hands it to one member.
import Nostr
import ScenarioModel
import Simulation

extension StepInterpreter {
    mutating func inject(_ step: InjectStep) throws {
        var original: Event?
        if let copy = step.copy {
            let candidates = world.publishedEvents(kind: copy.kind.map { Kind(rawValue: $0) }, by: copy.author)
            if let nth = copy.nth {
                guard nth <= candidates.count else {
                    throw StepFailure(message: "inject: only \(candidates.count) published event(s) match the copy selector, not \(nth)")
                }
                original = candidates[nth - 1]
            } else {
                guard let last = candidates.last else { throw StepFailure(message: "inject: no published event matches the copy selector") }
                original = last
            }
        }
        let now = world.network.unixSeconds
        // A crafted event's pubkey is set by whoever signs it (loading guarantees a kind or a copy).
        let placeholder = UnsignedEvent(pubkey: try key(world.labels.first ?? ""), createdAt: now, kind: .metadata, content: "")
        var unsigned = original?.unsigned ?? placeholder
        if let k = step.kind { unsigned.kind = Kind(rawValue: k) }
        if let content = step.content { unsigned.content = content }
        // Named tags replace the copy's tags of the same name; a crafted event starts with none.
        if let tags = step.tags {
            let names = Set(tags.map { $0[0] })
            unsigned.tags = unsigned.tags.filter { !names.contains($0.first ?? "") } + tags
        }
        if let name = step.removeTag {
            guard unsigned.tags.contains(where: { $0.first == name }) else {
                throw StepFailure(message: "inject: the event has no '\(name)' tag to remove")
            }
            unsigned.tags.removeAll { $0.first == name }
        }
        if let age = step.age {
            unsigned.createdAt = now - min(now, UInt64(age.milliseconds / 1_000))
        } else if original == nil {
            unsigned.createdAt = now
        }
        if let expiresIn = step.expiresIn {
            unsigned.tags.removeAll { $0.first == "expiration" }
            unsigned.tags.append(["expiration", String(now + UInt64(expiresIn.milliseconds / 1_000))])
        }
        let breakage: InjectRecipe.Breakage? =
            switch step.breakage {
            case .signature: .signature
            case .id: .id
            case .content: .content
            case .createdAt: .createdAt
            case nil: nil
            }
        // A changed copy is re-signed by its author when that is a member's own key; a copy of a
        // one-time-key event (kind 445) gets a throwaway key, which looks the same on the wire.
        var signer = step.author
        if signer == nil, let original, original.unsigned != unsigned {
            signer = world.labels.first { world.member($0)?.publicKey == original.pubkey }
        }
        let event: Event
        do {
            event = try world.makeEvent(InjectRecipe(original: original, unsigned: unsigned, signer: signer, breakage: breakage))
        } catch {
            throw StepFailure(message: "inject: could not build the event: \(error)")
        }
        log.append("  " + world.inject(event, relay: step.relay, to: step.to))
    }
}
