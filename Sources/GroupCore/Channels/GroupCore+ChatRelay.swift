import EngineInterface
import Nostr

extension GroupCore {
    var chatRelayConduct: ChatRelayConduct? { configuration.behaviour.chatRelay }

    /// How many channels we have not joined a chat relay keeps early join requests for.
    static let maximumEarlyChannels = 64
    /// How many early requesters one such channel keeps (the first to ask): anyone can send a
    /// join request under a fresh key, so without it one channel's list grows without end. A
    /// requester turned away is not admitted; its join fails at its deadline and can be retried
    /// once the channel is served (`retryJoinChannel`).
    static let maximumEarlyRequesters = 256

    /// A chat relay was welcomed into a channel group: it tells the owners it accepted, opens its
    /// fan-out (a group it administers alone until subscribers ask in), and reports itself active.
    func relayJoinedChannel(_ snapshot: GroupSnapshot) async {
        let channelID = snapshot.nostrGroupID
        guard channels.services[channelID] == nil else { return }
        channels.services[channelID] = RelayService(channelID: channelID)
        reportToOwners(channelID, status: "accepted", subscribers: nil)
        let profile = ChannelProfile(parsing: snapshot.description)
        let fanOutProfile = ChannelProfile(
            channelID: channelID, description: profile?.description ?? "", welcomeMessage: profile?.welcomeMessage ?? "")
        do {
            let created = try await engine.createGroup(
                GroupCreation(
                    creator: publicKey, keyPackages: [], name: snapshot.name, description: fanOutProfile.serialized(),
                    relays: configuration.groupRelays, admins: [publicKey]))
            await adopt(created.group)
            channels.services[channelID]?.fanOutID = created.group.nostrGroupID
            channels.services[channelID]?.reportedCount = 0
            let early = channels.earlyRequests.removeValue(forKey: channelID) ?? []
            channels.services[channelID]?.waiting = early
            note("serving channel \(channelID.prefix(8)) through fan-out \(created.group.nostrGroupID.prefix(8))")
            reportToOwners(channelID, status: "active", subscribers: 0)
        } catch {
            fail(error, during: "opening the fan-out of \(channelID.prefix(8))", chatID: channelID)
        }
    }

    /// A subscriber asks to join a channel we serve: it waits for the next add commit.
    func relayReceivedJoinRequest(from subscriber: PublicKey, channelID: String) {
        guard var service = channels.services[channelID], let fanOutID = service.fanOutID else {
            // Bounded: requests naming channels that never welcome us must not grow without end.
            let known = channels.earlyRequests[channelID] != nil || channels.earlyRequests.count < Self.maximumEarlyChannels
            let waiting = channels.earlyRequests[channelID] ?? []
            if known, waiting.count < Self.maximumEarlyRequesters, !waiting.contains(subscriber) {
                channels.earlyRequests[channelID, default: []].append(subscriber)
            }
            note("join request for \(channelID.prefix(8)), a channel we do not serve (yet)")
            return
        }
        guard !service.closed else {
            note("join request for \(channelID.prefix(8)), which its owner deleted")
            return
        }
        guard !service.waiting.contains(subscriber), chats[fanOutID]?.members.contains(subscriber) != true else { return }
        service.waiting.append(subscriber)
        channels.services[channelID] = service
        note("subscriber \(subscriber.hex.prefix(8)) waits to join \(channelID.prefix(8))")
    }

    /// An owner asks where we stand (after a failed creation): we answer with our status.
    func relayPinged(by owner: PublicKey, channelID: String) {
        guard let service = channels.services[channelID], service.fanOutID != nil else { return }
        guard !service.closed else { return reportToOwners(channelID, status: "closed", subscribers: nil) }
        let count = service.fanOutID.flatMap { chats[$0] }.map { max($0.members.count - 1, 0) } ?? 0
        reportToOwners(channelID, status: "active", subscribers: count)
    }

    /// After every input: admit waiting subscribers in one add commit when none of ours is in
    /// flight (one commit per group at a time), and report subscriber counts that changed.
    func pumpChatRelay() async {
        guard chatRelayConduct != nil else { return }
        for channelID in channels.services.keys.sorted() {
            guard var service = channels.services[channelID], let fanOutID = service.fanOutID, let fanOut = chats[fanOutID] else {
                continue
            }
            let count = max(fanOut.members.count - 1, 0)
            if service.reportedCount != count {
                service.reportedCount = count
                channels.services[channelID] = service
                reportToOwners(channelID, status: "active", subscribers: count)
            }
            let fetching = keyPackageLookups.fetches.values.contains { $0.purpose.chatID == fanOutID }
            guard !commits.isPending(in: fanOutID), !fetching else { continue }
            if await removeLeavingSubscribers(channelID, from: fanOut) { continue }
            guard !service.waiting.isEmpty else { continue }
            let joining = service.waiting.filter { !fanOut.members.contains($0) }
            channels.services[channelID]?.waiting = []
            guard !joining.isEmpty else { continue }
            note("admitting \(joining.count) subscriber(s) into \(fanOutID.prefix(8))")
            fetchKeyPackages(of: joining, for: .add(chatID: fanOutID))
        }
    }

    /// A broadcast reached us in a channel group: forwarded into our fan-out when an owner signed
    /// it (honest relays check too, so as not to carry forgeries), altered or forged when this relay
    /// is set to misbehave. Messages in our fan-out (subscribers posting) are dropped.
    func relayReceived(_ received: ReceivedMessage, in chatID: String) async {
        if channels.service(forFanOut: chatID) != nil {
            note("dropped a post by \(received.sender.hex.prefix(8)) in fan-out \(chatID.prefix(8)): subscribers cannot post")
            return
        }
        if received.rumor.kind == .channelClosed {
            await relayReceivedClosing(received, channelID: chatID)
            return
        }
        if received.rumor.kind == .channelOwners {
            await relayReceivedOwners(received, channelID: chatID)
            return
        }
        guard let service = channels.services[chatID], !service.closed, let fanOutID = service.fanOutID, let fanOut = chats[fanOutID],
            let channel = chats[chatID], channel.admins.contains(received.sender), received.rumor.kind == .channelBroadcast
        else {
            note("ignored kind \(received.rumor.kind) from \(received.sender.hex.prefix(8)) in \(chatID.prefix(8))")
            return
        }
        guard var inner = try? Event(json: received.rumor.content), inner.pubkey == received.sender else {
            note("dropped a broadcast in \(chatID.prefix(8)) not signed by its sender")
            return
        }
        switch chatRelayConduct ?? .honest {
        case .honest:
            break
        case .alters:
            // Through JSON, the only way to hold an event whose id and signature no longer match.
            guard case .object(var fields) = inner.jsonValue else { return }
            fields["content"] = .string(inner.content + " (edited by relay)")
            guard let altered = try? Event.decodeUnverified(.object(fields)) else { return }
            inner = altered
        case .forges:
            guard
                let forged = try? UnsignedEvent(
                    pubkey: publicKey, createdAt: inner.createdAt, kind: inner.kind, tags: inner.tags, content: inner.content + " (forged)"
                ).signed(with: configuration.keypair, using: &random)
            else { return }
            inner = forged
        }
        do {
            let event = try await engine.createMessage(
                in: fanOut.mlsGroupID, sender: publicKey, kind: .channelBroadcast, content: inner.json(), tags: [["h", chatID]])
            note("forwarded broadcast \(inner.id.hex.prefix(8)) into \(fanOutID.prefix(8))")
            publishSigned(event, to: fanOut.relays)
        } catch {
            fail(error, during: "forwarding a broadcast", chatID: chatID)
        }
    }

    func reportToOwners(_ channelID: String, status: String, subscribers: Int?) {
        guard let channel = chats[channelID] else { return }
        var content: [String: JSONValue] = ["status": .string(status)]
        if let subscribers { content["subscribers"] = .number(String(subscribers)) }
        let rumor = UnsignedEvent(
            pubkey: publicKey, createdAt: now, kind: .channelRelayStatus, tags: [["h", channelID]],
            content: JSONValue.object(content).serialized())
        for owner in channel.admins { sendControl(rumor, to: owner) }
    }
}
