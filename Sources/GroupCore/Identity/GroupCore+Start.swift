import EngineInterface
import Nostr

extension GroupCore {
    static let directorySubscription = SubscriptionID("dir")
    static let inboxSubscription = SubscriptionID("inbox")
    static let directoryFilter = Filter(kinds: [.metadata, .inboxRelays, .keyPackageRelays])
    var inboxFilter: Filter { Filter(kinds: [.giftWrap], tags: ["p": [publicKey.hex]]) }

    /// Comes online: profile and relay lists on the discovery relays, the key package on the
    /// key-package relays, then subscriptions to the directory and to our gift wraps.
    func start() async {
        guard !session.started else { return }
        if session.restored { return await resume() }
        session.started = true
        let config = configuration
        // `picture` only when set, so that profiles without one keep the bytes they always had.
        var fields: [String: JSONValue] = ["name": .string(config.profileName)]
        if let picture = config.profilePicture { fields["picture"] = .string(picture) }
        let profile = JSONValue.object(fields).serialized()
        publish(UnsignedEvent(pubkey: publicKey, createdAt: now, kind: .metadata, content: profile), to: config.discoveryRelays)
        publish(relayList(.inboxRelays, config.inboxRelays), to: config.discoveryRelays)
        publish(relayList(.keyPackageRelays, config.keyPackageRelays), to: config.discoveryRelays)
        if config.behaviour.publishesKeyPackage { await publishKeyPackage() }

        send(.request(subscription: Self.directorySubscription, filters: [Self.directoryFilter]), to: config.discoveryRelays)
        send(.request(subscription: Self.inboxSubscription, filters: [inboxFilter]), to: config.inboxRelays)
        note("started as \(publicKey.hex.prefix(8))")
        changed("started")
    }

    private func relayList(_ kind: Kind, _ relays: [String]) -> UnsignedEvent {
        UnsignedEvent(pubkey: publicKey, createdAt: now, kind: kind, tags: relays.map { ["relay", $0] }, content: "")
    }

    /// MIP-00: the engine drafts the key package, our Nostr code signs it as kind 30443. An engine
    /// that predates kind 30443 (MDK 0.7.0) drafts no `d` tag: its key package goes out as kind 443,
    /// as its own apps published it, and peers find it by that kind (`requestKeyPackage`).
    func publishKeyPackage() async {
        do {
            let draft = try await engine.createKeyPackage(
                for: publicKey, relays: configuration.keyPackageRelays, protected: configuration.behaviour.protectsKeyPackage)
            if let event = publish(
                draft.unsignedEvent(author: publicKey, createdAt: now, legacy: draft.dTag.isEmpty), to: configuration.keyPackageRelays)
            {
                keyPackageLookups.own[event.id.hex] = draft.keyPackageRef.lowercased()
            }
            note("published key package \(draft.keyPackageRef.prefix(8))")
        } catch {
            fail(error, during: "creating our key package", chatID: nil)
        }
    }
}
