// `bench engines`: the same Marmot operations on any engine, through ProtocolEngine alone, so our
// engine and MDK (through its driver) are timed like for like (docs/benchmarks.md). Setup (keys, key
// packages, gift wraps) is not timed; each timed operation is the engine work a real client waits
// for, on both sides of the wire where there are two.
import EngineInterface
import Nostr

/// The sizes of one bench (defaults: the figures).
struct EngineBenchSizes: Sendable {
    var members = 100
    var added = 10
    var removed = 10
    var messages = 1000
}

/// Seconds per operation.
struct EngineBenchFigures: Sendable {
    static let names = [
        "create a group of N members", "one joiner processes the welcome", "add members (commit, merge, joiner processes)",
        "remove members (commit, merge, joiner processes)", "send messages", "receive messages",
    ]
    var seconds: [Double] = []
    /// Engines started and key packages made and signed (not an operation; printed for scale).
    var setup: Double = 0
}

/// One member of the bench: a Nostr identity and its engine.
struct BenchMember: Sendable {
    let keypair: Keypair
    let engine: any ProtocolEngine
    var pubkey: PublicKey { keypair.publicKey }
}

struct EngineBench {
    typealias MakeEngine = @Sendable (_ label: String) async throws -> any ProtocolEngine

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    static let relays = ["wss://relay.bench.test"]
    let sizes: EngineBenchSizes
    let now: UInt64
    var keys: BenchKeys

    /// The members and their key packages (not timed).
    struct Cast: Sendable {
        let creator: BenchMember
        let invitees: [BenchMember]
        let invitations: [Event]
        let additions: [Event]
        var joiner: BenchMember { invitees[0] }
    }

    /// Runs every operation once, in order, on engines from `make`.
    mutating func measure(_ make: MakeEngine) async throws -> EngineBenchFigures {
        let (cast, setup) = try await Timed.run { try await prepare(make) }
        var figures = EngineBenchFigures(setup: setup)
        let (created, createTime) = try await Timed.run {
            try await cast.creator.engine.createGroup(creation(cast.creator, cast.invitations))
        }
        figures.seconds.append(createTime)
        let wrapper = try keys.wrapperID(created.welcomeRumors[0], from: cast.creator, to: cast.joiner, now: now)
        figures.seconds.append(try await Timed.run { try await Self.join(cast.joiner, wrapper, created.welcomeRumors[0]) }.1)
        figures.seconds += try await evolve(cast, group: created.group.mlsGroupID)
        return figures
    }

    mutating func prepare(_ make: MakeEngine) async throws -> Cast {
        let creator = try await member("creator", make)
        let invitees = try await members("invitee", sizes.members - 1, make)
        let newcomers = try await members("newcomer", sizes.added, make)
        let invitations = try await keyPackages(invitees)
        return Cast(creator: creator, invitees: invitees, invitations: invitations, additions: try await keyPackages(newcomers))
    }

    /// Add, remove, send, receive: their seconds.
    func evolve(_ cast: Cast, group: MLSGroupID) async throws -> [Double] {
        let (creator, joiner) = (cast.creator, cast.joiner)
        let add = try await Timed.run {
            try await Self.commit(try await creator.engine.addMembers(to: group, keyPackages: cast.additions), creator, joiner)
        }.1
        let leaving = Array(cast.invitees.dropFirst().prefix(sizes.removed).map(\.pubkey))
        let remove = try await Timed.run {
            try await Self.commit(try await creator.engine.removeMembers(from: group, pubkeys: leaving), creator, joiner)
        }.1
        let (events, send) = try await Timed.run { try await Self.send(sizes.messages, from: creator, in: group) }
        let receive = try await Timed.run { try await Self.receive(events, by: joiner) }.1
        return [add, remove, send, receive]
    }

    mutating func member(_ label: String, _ make: MakeEngine) async throws -> BenchMember {
        let keypair = keys.keypair()
        return BenchMember(keypair: keypair, engine: try await make(label))
    }

    mutating func members(_ prefix: String, _ count: Int, _ make: MakeEngine) async throws -> [BenchMember] {
        var out: [BenchMember] = []
        for index in 0..<count { out.append(try await member("\(prefix)-\(index)", make)) }
        return out
    }

    /// Each member's signed kind-30443 key package, made by its own engine.
    mutating func keyPackages(_ members: [BenchMember]) async throws -> [Event] {
        var events: [Event] = []
        for member in members {
            let draft = try await member.engine.createKeyPackage(for: member.pubkey, relays: Self.relays, protected: false)
            events.append(try keys.sign(draft.unsignedEvent(author: member.pubkey, createdAt: now), by: member.keypair))
        }
        return events
    }

    func creation(_ creator: BenchMember, _ keyPackages: [Event]) -> GroupCreation {
        GroupCreation(creator: creator.pubkey, keyPackages: keyPackages, name: "bench", relays: Self.relays, admins: [creator.pubkey])
    }

    static func join(_ joiner: BenchMember, _ wrapper: EventID, _ rumor: UnsignedEvent) async throws {
        let welcome = try await joiner.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
        _ = try await joiner.engine.acceptWelcome(welcome.id)
    }

    /// The author merges its commit, the joiner processes it (and must apply it).
    static func commit(_ evolution: GroupEvolution, _ author: BenchMember, _ joiner: BenchMember) async throws {
        try await author.engine.mergePendingCommit(in: evolution.mlsGroupID)
        let result = try await joiner.engine.processMessage(evolution.event)
        guard case .commit = result else { throw Failed(description: "the joiner did not apply the commit: \(result)") }
    }

    static func send(_ count: Int, from sender: BenchMember, in group: MLSGroupID) async throws -> [Event] {
        var events: [Event] = []
        for index in 0..<count {
            events.append(
                try await sender.engine.createMessage(
                    in: group, sender: sender.pubkey, kind: .chatMessage, content: "bench message \(index)", tags: []))
        }
        return events
    }

    static func receive(_ events: [Event], by joiner: BenchMember) async throws {
        for event in events {
            let result = try await joiner.engine.processMessage(event)
            guard case .applicationMessage = result else { throw Failed(description: "the joiner did not accept a message: \(result)") }
        }
    }
}
