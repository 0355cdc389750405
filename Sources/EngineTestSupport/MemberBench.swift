// Engine-agnostic steps of group tests (key packages, welcome delivery, commits, messages), shared by
// the MDK interop tests and the native engine's tests so each flow is written once.
import ConformanceTestSupport
import EngineInterface
import Nostr
import Testing

/// Randomness and timestamps for the members of one test, derived from one seed.
package struct MemberBench {
    package static let relays = ["wss://relay.one.test"]

    package var generator: TestGenerator
    /// `created_at` of key-package events (engines check the KeyPackage's own lifetime, not the event's).
    package let keyPackageTime: UInt64

    package init(seed: UInt64, keyPackageTime: UInt64) {
        generator = TestGenerator(seed: seed)
        self.keyPackageTime = keyPackageTime
    }

    /// A kind-30443 key-package event built from the member's engine and signed by our Nostr code.
    package mutating func keyPackage(of member: Member) async throws -> Event {
        let draft = try await member.engine.createKeyPackage(for: member.pubkey, relays: Self.relays, protected: false)
        #expect(draft.tags.contains(["d", draft.dTag]))
        #expect(draft.tags.contains(["i", draft.keyPackageRef]))
        let event = try draft.unsignedEvent(author: member.pubkey, createdAt: keyPackageTime)
            .signed(with: member.keypair, using: &generator)
        try event.verify()
        return event
    }

    /// MIP-02 delivery of a welcome rumor: `sender` seals and gift-wraps it for `recipient` with our
    /// NIP-59 code, the wrap travels as wire JSON (re-parsed and verified), and `recipient` unwraps it.
    /// Returns what the recipient's engine is given: the wrap's id and the unwrapped rumor.
    package mutating func deliverWelcome(_ rumor: UnsignedEvent, from sender: Member, to recipient: Member) throws
        -> (wrapperID: EventID, rumor: UnsignedEvent)
    {
        #expect(rumor.kind == .welcome)
        let wrap = try GiftWrap.wrap(
            rumor: rumor, sender: sender.keypair, recipient: recipient.pubkey, now: rumor.createdAt, using: &generator)
        let received = try Event(json: wrap.json())
        #expect(received.kind == .giftWrap)
        #expect(received.firstTagValue("p") == recipient.pubkey.hex)
        let opened = try GiftWrap.unwrap(received, recipient: recipient.keypair)
        #expect(opened.sender == sender.pubkey, "the welcome is sealed by its committer")
        #expect(opened.rumor == rumor)
        return (received.id, opened.rumor)
    }

    /// Delivers, processes and accepts a welcome; checks what the invitation prompt would show.
    package mutating func join(_ recipient: Member, rumor: UnsignedEvent, from sender: Member, groupName: String)
        async throws -> GroupSnapshot
    {
        let (wrapperID, unwrapped) = try deliverWelcome(rumor, from: sender, to: recipient)
        let welcome = try await recipient.engine.processWelcome(wrapperID: wrapperID, rumor: unwrapped)
        #expect(welcome.id == rumor.id)
        #expect(welcome.wrapperID == wrapperID)
        #expect(welcome.groupName == groupName)
        #expect(welcome.welcomer == sender.pubkey)
        let pending = try await recipient.engine.pendingWelcomes()
        #expect(pending.map(\.id).contains(welcome.id))
        let group = try await recipient.engine.acceptWelcome(welcome.id)
        #expect(group.state == .active)
        #expect(try await recipient.engine.pendingWelcomes().map(\.id).contains(welcome.id) == false)
        return group
    }

    /// Publishes an evolution as its author would: merge own commit, then every receiver processes it.
    package static func commit(_ evolution: GroupEvolution, by author: Member, to receivers: [Member]) async throws {
        try await author.engine.mergePendingCommit(in: evolution.mlsGroupID)
        for receiver in receivers {
            let result = try await receiver.engine.processMessage(evolution.event)
            #expect(result == .commit(evolution.mlsGroupID), "\(receiver.name) on \(author.name)'s commit: \(result)")
        }
    }

    /// Sends `content` from `sender` and checks every receiver gets it, authenticated as the sender.
    package static func exchange(_ content: String, from sender: Member, to receivers: [Member], in group: MLSGroupID)
        async throws
    {
        let event = try await sender.engine.createMessage(
            in: group, sender: sender.pubkey, kind: .chatMessage, content: content, tags: [])
        #expect(event.kind == .groupEvent)
        #expect(event.pubkey != sender.pubkey, "kind 445 must be signed by a one-time key")
        for receiver in receivers {
            guard case .applicationMessage(let message) = try await receiver.engine.processMessage(event) else {
                Issue.record("\(receiver.name) did not accept \(sender.name)'s message")
                continue
            }
            #expect(message.rumor.content == content)
            #expect(message.rumor.pubkey == sender.pubkey)
            #expect(message.sender == sender.pubkey)
            #expect(message.wrapperID == event.id)
            #expect(try await receiver.engine.messages(in: group).contains { $0.rumor.id == message.rumor.id })
        }
    }

    /// `times` self-updates by `member`, each published to `receivers`.
    package static func selfUpdate(_ member: Member, times: Int, in group: MLSGroupID, receivers: [Member]) async throws {
        for _ in 0..<times {
            try await commit(try await member.engine.selfUpdate(in: group), by: member, to: receivers)
        }
    }
}

/// The state every member of a group must agree on after a step.
package struct GroupExpectation {
    package var members: [Member]
    package var admins: [Member]
    package var name: String
    package var epoch: UInt64

    package init(members: [Member], admins: [Member], name: String, epoch: UInt64) {
        self.members = members
        self.admins = admins
        self.name = name
        self.epoch = epoch
    }

    package func check(_ group: MLSGroupID, step: String) async throws {
        let memberKeys = members.map(\.pubkey).sorted()
        let adminKeys = admins.map(\.pubkey).sorted()
        for member in members {
            let engine = member.engine
            let snapshot = try await engine.group(group)
            #expect(snapshot.state == .active, "\(step): \(member.name) state")
            #expect(snapshot.name == name, "\(step): \(member.name) name")
            #expect(snapshot.epoch == epoch, "\(step): \(member.name) epoch")
            #expect(snapshot.admins == adminKeys, "\(step): \(member.name) admins in group record")
            #expect(try await engine.members(of: group) == memberKeys, "\(step): \(member.name) members")
            #expect(try await engine.admins(of: group) == adminKeys, "\(step): \(member.name) admins")
            #expect(try await engine.epoch(of: group) == epoch, "\(step): \(member.name) epoch query")
            #expect(try await engine.relays(of: group) == MemberBench.relays, "\(step): \(member.name) relays")
        }
    }
}
