import EngineInterface
import Nostr

extension GroupCore {
    /// Starts looking up every invitee's key package at once, each on its own key-package relays
    /// (from its kind 10051; ours when it published none), with one timeout for the whole fetch.
    func fetchKeyPackages(of peers: [PublicKey], for purpose: KeyPackageFetch.Purpose) {
        let id = makeNumber()
        let timer = startTimer(.keyPackageFetch(id), milliseconds: configuration.behaviour.keyPackageFetchTimeoutMilliseconds)
        var lookups: [PublicKey: KeyPackageFetch.Lookup] = [:]
        for (index, peer) in peers.enumerated() {
            let relays = directory.keyPackageRelays(of: peer) ?? configuration.keyPackageRelays
            lookups[peer] = KeyPackageFetch.Lookup(outstanding: Set(relays))
            for (relayIndex, url) in relays.enumerated() {
                requestKeyPackage(of: peer, at: url, subscription: "kp\(id)-\(index)-\(relayIndex)", fetch: id)
            }
        }
        keyPackageLookups.fetches[id] = KeyPackageFetch(id: id, purpose: purpose, peers: peers, lookups: lookups, timer: timer)
        setBusy("fetch\(id)", BusyOperation(kind: "fetchKeyPackages", chatID: purpose.chatID))
        note("fetching key packages of \(peers.count) peer(s) as fetch \(id)")
    }

    /// After a restart: the lookups still waiting for a relay lost their subscriptions with the
    /// connections, so each asks again where it had no answer (the same subscription ids; the fetch's
    /// timer was started again with the others). Without this an invitation made just before the
    /// app stopped would end as `timeout` for every invitee.
    func resumeFetches() {
        for id in keyPackageLookups.fetches.keys.sorted() {
            guard let fetch = keyPackageLookups.fetches[id] else { continue }
            for (index, peer) in fetch.peers.enumerated() {
                guard let lookup = fetch.lookups[peer], lookup.outcome == nil else { continue }
                let relays = directory.keyPackageRelays(of: peer) ?? configuration.keyPackageRelays
                for (relayIndex, url) in relays.enumerated() where lookup.outstanding.contains(url) {
                    requestKeyPackage(of: peer, at: url, subscription: "kp\(id)-\(index)-\(relayIndex)", fetch: id)
                }
            }
            note("fetch \(id): asking again after the restart")
        }
    }

    /// One lookup's subscription: `peer`'s key packages at `url`, answered to fetch `id`.
    private func requestKeyPackage(of peer: PublicKey, at url: String, subscription: String, fetch id: UInt64) {
        keyPackageLookups.subscriptions[subscription] = (id, peer, url)
        // Kind 443 too: peers of MDK 0.7.0 publish nothing else, and MDK 0.8.0 accepted it through its
        // migration window (its changelog: 443 read and dual-published until 2026-05-31; issue 31's
        // skew family). The best usable one of either kind is invited; under the current profile a
        // kind-443 one is of the legacy profile, so its author is told to upgrade rather than
        // reported as never having published (mdk#1975), in the same request.
        let filter = Filter(authors: [peer.hex], kinds: [.keyPackage, .keyPackageLegacy])
        emit(.send(url: url, message: .request(subscription: SubscriptionID(subscription), filters: [filter])))
    }

    /// A key-package event (or an unusable one) offered on a lookup subscription.
    func offerKeyPackage(
        _ event: Event?, invalid: (FailedPeer.Reason, String)?, lookup: (fetch: UInt64, peer: PublicKey, relay: String)
    ) async {
        guard var entry = keyPackageLookups.fetches[lookup.fetch]?.lookups[lookup.peer], entry.outcome == nil else { return }
        var problem = invalid
        if let event, problem == nil {
            problem = await check(event, from: lookup.peer)
            if problem == nil, entry.best.map({ $0.createdAt < event.createdAt }) ?? true {
                entry.best = event
                keyPackageLookups.keyPackageAuthors[event.id.hex] = event.pubkey
            }
        }
        if let problem, entry.problem == nil { entry.problem = KeyPackageFetch.Problem(reason: problem.0, detail: problem.1) }
        keyPackageLookups.fetches[lookup.fetch]?.lookups[lookup.peer] = entry
    }

    /// Why a key-package event cannot be used, or nil when it can (MIP-00 tags, NIP-40 expiry,
    /// then the engine's own validation).
    private func check(_ event: Event, from peer: PublicKey) async -> (FailedPeer.Reason, String)? {
        guard event.pubkey == peer, event.kind == .keyPackage || event.kind == .keyPackageLegacy else {
            return (.invalidKeyPackage, "kind \(event.kind) by \(event.pubkey.hex.prefix(8)) answered a lookup for \(peer.hex.prefix(8))")
        }
        if let suite = event.firstTagValue("mls_ciphersuite"), suite.lowercased() != "0x0001" {
            return (.wrongCiphersuite, "ciphersuite \(suite), we speak 0x0001")
        }
        // Which profile the key package is of: only the current profile's carry `app_components`
        // (transports/nostr.md; MDK 0.11's captures). One of the other profile is refused here,
        // with the reason the user needs, before a legacy tag check would call it malformed.
        let offered: MarmotProfile = event.tags.contains { $0.first == "app_components" } ? .current : .legacy
        if offered != configuration.marmotProfile {
            return (.profileMismatch, Self.mismatch(offered: offered, own: configuration.marmotProfile))
        }
        let extensions = Set(event.tags.first { $0.first == "mls_extensions" }?.dropFirst().map { $0.lowercased() } ?? [])
        // MIP-00's required extensions; the current profile's tags are the engine's to check.
        let required = configuration.marmotProfile == .legacy ? ["0x000a", "0xf2ee"] : []
        let missing = required.filter { !extensions.contains($0) }
        if !missing.isEmpty { return (.missingExtensions, "mls_extensions lacks \(missing.joined(separator: ", "))") }
        if let expiration = event.firstTagValue("expiration").flatMap(UInt64.init), expiration <= now {
            return (.expired, "expired at \(expiration) (NIP-40)")
        }
        do {
            try await engine.validateKeyPackage(event)
            return nil
        } catch  where error.code == .profileMismatch {
            return (.profileMismatch, "\(error.code): \(error.reason)")
        } catch {
            let text = error.reason.lowercased()
            let expired = text.contains("lifetime") || text.contains("expired")
            return (expired ? .expired : .invalidKeyPackage, "\(error.code): \(error.reason)")
        }
    }

    /// A relay finished answering a lookup (EOSE/CLOSED) or failed; resolves the invitee when it
    /// was the last relay, and the fetch when it was the last invitee.
    func lookupFinished(_ lookup: (fetch: UInt64, peer: PublicKey, relay: String), relayFailed: Bool) async {
        let subscriptions = keyPackageLookups.subscriptions.filter {
            $0.value.fetch == lookup.fetch && $0.value.peer == lookup.peer && $0.value.relay == lookup.relay
        }
        for subscription in subscriptions.keys.sorted() {
            keyPackageLookups.subscriptions[subscription] = nil
            if !relayFailed { emit(.send(url: lookup.relay, message: .close(SubscriptionID(subscription)))) }
        }
        guard var entry = keyPackageLookups.fetches[lookup.fetch]?.lookups[lookup.peer], entry.outcome == nil else { return }
        entry.outstanding.remove(lookup.relay)
        if relayFailed { entry.unreachable.insert(lookup.relay) }
        if entry.outstanding.isEmpty { entry.outcome = Self.outcome(of: entry) }
        keyPackageLookups.fetches[lookup.fetch]?.lookups[lookup.peer] = entry
        if let fetch = keyPackageLookups.fetches[lookup.fetch], fetch.isComplete { await complete(fetch) }
    }

    /// Usable key package first; else the problem seen; else "relay down" when no relay answered;
    /// else "no key package".
    private static func outcome(of entry: KeyPackageFetch.Lookup) -> KeyPackageFetch.Outcome {
        if let best = entry.best { return .found(best) }
        if let problem = entry.problem { return .failed(problem.reason, problem.detail) }
        if !entry.unreachable.isEmpty {
            return .failed(.relayDown, "key-package relay(s) unreachable: \(entry.unreachable.sorted().joined(separator: ", "))")
        }
        return .failed(.noKeyPackage, "no kind 30443 event on the invitee's key-package relays")
    }

    func fetchTimedOut(_ id: UInt64) async {
        guard var fetch = keyPackageLookups.fetches[id] else { return }
        for peer in fetch.peers where fetch.lookups[peer]?.outcome == nil {
            guard let entry = fetch.lookups[peer] else { continue }
            fetch.lookups[peer]?.outcome =
                entry.best.map { .found($0) }
                ?? entry.problem.map { .failed($0.reason, $0.detail) }
                ?? .failed(.timeout, "no answer from \(entry.outstanding.sorted().joined(separator: ", ")) in time")
        }
        for (subscription, lookup) in keyPackageLookups.subscriptions.sorted(by: { $0.key < $1.key }) where lookup.fetch == id {
            keyPackageLookups.subscriptions[subscription] = nil
            emit(.send(url: lookup.relay, message: .close(SubscriptionID(subscription))))
        }
        await complete(fetch)
    }

    /// Acts on a finished fetch under the partial-failure policy.
    private func complete(_ fetch: KeyPackageFetch) async {
        keyPackageLookups.fetches[fetch.id] = nil
        timers.running[fetch.timer] = nil
        setBusy("fetch\(fetch.id)", nil)
        var found: [(PublicKey, Event)] = []
        var failed: [FailedPeer] = []
        for peer in fetch.peers {
            switch fetch.lookups[peer]?.outcome {
            case .found(let event): found.append((peer, event))
            case .failed(let reason, let detail): failed.append(FailedPeer(pubkey: peer, reason: reason, detail: detail, chatID: nil))
            case nil: failed.append(FailedPeer(pubkey: peer, reason: .timeout, detail: "unresolved", chatID: nil))
            }
        }
        note("fetch \(fetch.id): \(found.count) found, \(failed.map { $0.reason.rawValue }.joined(separator: ","))")
        switch fetch.purpose {
        case .channel(let draft):
            await createChannel(draft, found: found, failed: failed)
        case .retry(let decisionID):
            await retried(decisionID, found: found, failed: failed)
        case .create(_, _, let policy, _), .add(_, let policy):
            if policy == .ask, !failed.isEmpty {
                leaveDecision(for: fetch.purpose, ready: found, failed: failed)
            } else {
                await carryOut(fetch.purpose, found: found, failed: failed, policy: policy)
            }
        }
    }

    /// Creates the group or adds the members with the invitees found, under `policy` (`.ask` has
    /// been settled by the time this runs: it acts as `.proceed`).
    func carryOut(
        _ purpose: KeyPackageFetch.Purpose, found: [(PublicKey, Event)], failed: [FailedPeer], policy: PartialFailurePolicy
    ) async {
        let abort: CoreError?
        if found.isEmpty {
            abort = CoreError(.allPeersFailed, "no invitee's key package could be used (\(failed.count) failed)")
        } else if !failed.isEmpty, policy == .abort {
            abort = CoreError(.partialFailureAborted, "\(failed.count) invitee(s) failed and the action asked to abort")
        } else {
            abort = nil
        }
        if let abort {
            record(failed, chatID: purpose.chatID)
            fail(abort, chatID: purpose.chatID)
            return
        }
        switch purpose {
        case .create(let name, let description, _, let admins):
            await createGroup(name: name, description: description, admins: admins, invitees: found, failed: failed)
        case .add(let chatID, _):
            record(failed, chatID: chatID)
            await addMembers(found, to: chatID)
        case .channel, .retry:
            break
        }
    }

    func record(_ failed: [FailedPeer], chatID: String?) {
        guard !failed.isEmpty else { return }
        // A role chosen for an invitee this action could not invite must not follow it into a
        // later invitation (which names its own).
        for peer in failed { membership.invitationRoles[peer.pubkey] = nil }
        ui.failedPeers += failed.map {
            var peer = $0
            peer.chatID = chatID
            return peer
        }
        changed("failed peers \(failed.count)")
        // A contact of the other profile cannot be invited until one side upgrades: say so once,
        // as its own error, so an app can show it rather than a generic invitation failure.
        let mismatched = failed.filter { $0.reason == .profileMismatch }
        if !mismatched.isEmpty {
            fail(
                CoreError(
                    .profileMismatch, "\(mismatched.count) contact(s) not invited: " + mismatched.map(\.detail).joined(separator: "; ")),
                chatID: chatID)
        }
    }

    /// What the user is told about a contact whose key package is of the `offered` profile.
    static func mismatch(offered: MarmotProfile, own: MarmotProfile) -> String {
        offered == .legacy
            ? "the contact's key package is of the legacy Marmot profile (MIP-00…03) and this app speaks the current one: the contact must upgrade"
            : "the contact's key package is of the current Marmot profile and this app speaks the legacy one (MIP-00…03): this app must upgrade"
    }
}

extension KeyPackageFetch.Purpose {
    var chatID: String? {
        if case .add(let chatID, _) = self { chatID } else { nil }
    }
}
