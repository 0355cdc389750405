import ConformanceTestSupport
import EngineInterface
import ExternalProcessEngine
import Foundation
import Nostr
import Testing

/// The MDK driver from the repository's venv, or nil when ci/setup has not created the venv.
enum MDKDriver {
    static let script = Vectors.repositoryRoot.appendingPathComponent("drivers/mdk/driver.py").path

    static var isAvailable: Bool { PythonVenv.interpreter != nil }

    static func launch() async throws -> DriverProcess {
        guard let python = PythonVenv.interpreter else {
            throw PythonVenv.Unavailable.noVenv(Vectors.repositoryRoot.appendingPathComponent(".venv").path)
        }
        return await DriverProcess.launch(executable: python.path, arguments: [script], requestTimeout: .seconds(120))
    }
}

/// A simulated member: a Nostr identity plus its own MDK instance.
struct Member {
    let name: String
    let keypair: Keypair
    let engine: ExternalProcessEngine

    var pubkey: PublicKey { keypair.publicKey }
}

/// A few members sharing one driver process, all derived from one seed.
struct Bench {
    static let relays = ["wss://relay.one.test"]
    /// Key-package events carry this creation time; MDK checks the KeyPackage's own lifetime, not the event's.
    static let keyPackageTime: UInt64 = 1_795_000_000

    let driver: DriverProcess
    var generator: TestGenerator

    init(driver: DriverProcess, seed: UInt64) {
        self.driver = driver
        generator = TestGenerator(seed: seed)
    }

    mutating func member(_ name: String) async throws -> Member {
        let keypair = Keypair.generate(using: &generator)
        let engine = try await driver.makeEngine(instance: name, encryptionKey: generator.bytes(32))
        return Member(name: name, keypair: keypair, engine: engine)
    }

    /// A kind-30443 key-package event built from the member's engine and signed by our Nostr code.
    mutating func keyPackage(of member: Member) async throws -> Event {
        let draft = try await member.engine.createKeyPackage(for: member.pubkey, relays: Self.relays, protected: false)
        #expect(draft.tags.contains(["d", draft.dTag]))
        #expect(draft.tags.contains(["i", draft.keyPackageRef]))
        let event = try draft.unsignedEvent(author: member.pubkey, createdAt: Self.keyPackageTime)
            .signed(with: member.keypair, using: &generator)
        try event.verify()
        return event
    }

    /// MIP-02 delivery of a welcome rumor: `sender` seals and gift-wraps it for `recipient` with our
    /// NIP-59 code, the wrap travels as wire JSON (re-parsed and verified), and `recipient` unwraps it.
    /// Returns what the recipient's engine is given: the wrap's id and the unwrapped rumor.
    mutating func deliverWelcome(_ rumor: UnsignedEvent, from sender: Member, to recipient: Member) throws
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
    mutating func join(_ recipient: Member, rumor: UnsignedEvent, from sender: Member, groupName: String) async throws
        -> GroupSnapshot
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
    static func commit(_ evolution: GroupEvolution, by author: Member, to receivers: [Member]) async throws {
        try await author.engine.mergePendingCommit(in: evolution.mlsGroupID)
        for receiver in receivers {
            let result = try await receiver.engine.processMessage(evolution.event)
            #expect(result == .commit(evolution.mlsGroupID), "\(receiver.name) on \(author.name)'s commit")
        }
    }
}

/// The state every member of a group must agree on after a step.
struct GroupExpectation {
    var members: [Member]
    var admins: [Member]
    var name: String
    var epoch: UInt64

    func check(_ group: MLSGroupID, step: String) async throws {
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
            #expect(try await engine.relays(of: group) == Bench.relays, "\(step): \(member.name) relays")
        }
    }
}
