import ConformanceTestSupport
import EngineInterface
import NativeSwiftEngine
import Nostr
import Testing

/// A simulated member: a Nostr identity plus its own engine (ours or a driver's).
struct Member: Sendable {
    let name: String
    let keypair: Keypair
    let engine: any ProtocolEngine

    var pubkey: PublicKey { keypair.publicKey }
}

/// Members, key packages and welcome delivery, all derived from one seed and one clock value.
struct Bench {
    static let relays = ["wss://relay.one.test"]

    var generator: TestGenerator
    let now: UInt64

    init(seed: UInt64, now: UInt64 = 1_795_300_000) {
        generator = TestGenerator(seed: seed)
        self.now = now
    }

    /// A member running our engine, seeded from the bench so runs are reproducible.
    mutating func swiftMember(_ name: String) -> Member {
        let keypair = Keypair.generate(using: &generator)
        let time = now
        let engine = NativeSwiftEngine(generator: TestGenerator(seed: generator.next()), clock: { time })
        return Member(name: name, keypair: keypair, engine: engine)
    }

    /// A kind-30443 key-package event from the member's engine, signed with the member's key.
    mutating func keyPackage(of member: Member) async throws -> Event {
        let draft = try await member.engine.createKeyPackage(for: member.pubkey, relays: Self.relays, protected: false)
        return try draft.unsignedEvent(author: member.pubkey, createdAt: now).signed(with: member.keypair, using: &generator)
    }

    /// Gift-wraps, unwraps, processes and accepts a welcome rumor.
    mutating func join(_ recipient: Member, rumor: UnsignedEvent, from sender: Member) async throws -> GroupSnapshot {
        let wrap = try GiftWrap.wrap(rumor: rumor, sender: sender.keypair, recipient: recipient.pubkey, now: rumor.createdAt, using: &generator)
        let opened = try GiftWrap.unwrap(try Event(json: wrap.json()), recipient: recipient.keypair)
        let welcome = try await recipient.engine.processWelcome(wrapperID: wrap.id, rumor: opened.rumor)
        #expect(welcome.welcomer == sender.pubkey)
        #expect(try await recipient.engine.pendingWelcomes().map(\.id).contains(welcome.id))
        let group = try await recipient.engine.acceptWelcome(welcome.id)
        #expect(group.state == .active)
        return group
    }

    /// Publishes an evolution as its author would: merge, then every receiver processes it as a commit.
    static func commit(_ evolution: GroupEvolution, by author: Member, to receivers: [Member]) async throws {
        try await author.engine.mergePendingCommit(in: evolution.mlsGroupID)
        for receiver in receivers {
            let result = try await receiver.engine.processMessage(evolution.event)
            #expect(result == .commit(evolution.mlsGroupID), "\(receiver.name) on \(author.name)'s commit: \(result)")
        }
    }

    /// Sends `content` from `sender`; every receiver must get it authenticated as the sender.
    static func exchange(_ content: String, from sender: Member, to receivers: [Member], in group: MLSGroupID) async throws {
        let event = try await sender.engine.createMessage(in: group, sender: sender.pubkey, kind: .chatMessage, content: content, tags: [])
        #expect(event.kind == .groupEvent)
        #expect(event.pubkey != sender.pubkey, "kind 445 must be signed by a one-time key")
        for receiver in receivers {
            guard case .applicationMessage(let message) = try await receiver.engine.processMessage(event) else {
                Issue.record("\(receiver.name) did not accept \(sender.name)'s message")
                continue
            }
            #expect(message.rumor.content == content)
            #expect(message.sender == sender.pubkey)
            #expect(message.wrapperID == event.id)
            #expect(try await receiver.engine.messages(in: group).contains { $0.rumor.id == message.rumor.id })
        }
    }
}

/// The state every listed member must agree on after a step.
struct GroupExpectation {
    var members: [Member]
    var admins: [Member]
    var name: String
    var epoch: UInt64

    func check(_ group: MLSGroupID, step: String) async throws {
        for member in members {
            let snapshot = try await member.engine.group(group)
            #expect(snapshot.state == .active, "\(step): \(member.name) state")
            #expect(snapshot.name == name, "\(step): \(member.name) name")
            #expect(snapshot.epoch == epoch, "\(step): \(member.name) epoch")
            #expect(try await member.engine.members(of: group) == members.map(\.pubkey).sorted(), "\(step): \(member.name) members")
            #expect(try await member.engine.admins(of: group) == admins.map(\.pubkey).sorted(), "\(step): \(member.name) admins")
            #expect(try await member.engine.relays(of: group) == Bench.relays, "\(step): \(member.name) relays")
        }
    }
}
