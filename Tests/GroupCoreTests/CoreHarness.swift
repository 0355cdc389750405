import ConformanceTestSupport
import GroupCore
import Nostr
import Testing

/// One core driven input by input, without a network: the test plays the relays.
struct CoreHarness {
    static let discovery = "wss://discovery.test"
    static let keyPackages = "wss://keypackages.test"
    static let inbox = "wss://inbox.test"
    static let group = "wss://group.test"

    let core: GroupCore
    let keypair: Keypair
    var now: UInt64 = 1_700_000_000
    var generator: TestGenerator
    /// Every effect so far, in order.
    var effects: [CoreEffect] = []
    var updates: [AppUpdate] { effects.compactMap { if case .update(let update) = $0 { update } else { nil } } }

    init(seed: UInt64, publishesKeyPackage: Bool = false) {
        generator = TestGenerator(seed: seed)
        keypair = Keypair.generate(using: &generator)
        let configuration = CoreConfiguration(
            keypair: keypair, profileName: "me", discoveryRelays: [Self.discovery], keyPackageRelays: [Self.keyPackages],
            inboxRelays: [Self.inbox], groupRelays: [Self.group],
            behaviour: .init(publishesKeyPackage: publishesKeyPackage)
        )
        core = GroupCore(configuration: configuration, engine: RefusingEngine(), generator: TestGenerator(seed: seed ^ 0xC0DE))
    }

    @discardableResult
    mutating func handle(_ input: CoreInput) async -> [CoreEffect] {
        let produced = await core.handle(input, now: now)
        effects += produced
        return produced
    }

    mutating func frame(_ message: RelayMessage, from url: String) async {
        await handle(.relayFrame(url: url, frame: message.json()))
    }

    /// Subscriptions the core opened for `author`'s key packages, with their relays.
    func keyPackageRequests(for author: PublicKey) -> [(url: String, subscription: SubscriptionID)] {
        effects.compactMap { effect in
            guard case .send(let url, .request(let subscription, let filters)) = effect,
                filters.contains(where: { $0.kinds?.contains(.keyPackage) == true && $0.authors == [author.hex] })
            else { return nil }
            return (url, subscription)
        }
    }

    var timers: [TimerToken] {
        effects.compactMap { if case .startTimer(let token, _) = $0 { token } else { nil } }
    }

    func state() async -> AppState { await core.state() }

    /// Revs 1, 2, 3… and `state()` equal to the last update.
    func checkUpdates() async {
        #expect(updates.map(\.rev) == (0..<updates.count).map { UInt64($0) + 1 })
        if let last = updates.last { #expect(await state() == last.state) }
    }

    /// A signed kind-30443 event shaped like MDK's, with `change` applied to its tags.
    mutating func keyPackage(by author: Keypair, change: (inout [[String]]) -> Void = { _ in }) throws -> Event {
        var tags: [[String]] = [
            ["d", String(repeating: "ab", count: 32)], ["mls_protocol_version", "1.0"], ["mls_ciphersuite", "0x0001"],
            ["mls_extensions", "0x000a", "0xf2ee"], ["mls_proposals", "0x000a"], ["relays", Self.keyPackages],
            ["i", String(repeating: "cd", count: 32)], ["encoding", "base64"],
        ]
        change(&tags)
        return try UnsignedEvent(pubkey: author.publicKey, createdAt: now - 10, kind: .keyPackage, tags: tags, content: "AAEAAS")
            .signed(with: author, using: &generator)
    }
}
