import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import MLS
import Marmot
import Nostr
import TLSCodec
import Testing

@testable import NativeSwiftEngine

/// Builders for the engine-level negative cases that need more than a forged event: key-package
/// events with one field broken (re-signed by their author), and Welcomes of real groups our MLS
/// library builds outside any engine (another cipher suite, bad group data). Each is valid up to
/// the rule under test.
extension EngineReceiverCheckTests {
    /// alice's answer to bob's key-package event after `change` (re-signed by bob), `later` seconds
    /// after bob made it.
    static func aliceValidatesBobsKeyPackage(seed: UInt64, later: UInt64 = 0, _ change: (inout UnsignedEvent) -> Void)
        async throws -> String
    {
        let clock = HostileMemberTests.TestClock()
        var bench = MemberBench(seed: seed)
        let alice = HostileMemberTests.member("alice", bench: &bench, clock: clock)
        let bob = HostileMemberTests.member("bob", bench: &bench, clock: clock)
        var unsigned = try await bench.keyPackage(of: bob).unsigned
        change(&unsigned)
        let event = try unsigned.signed(with: bob.keypair, using: &bench.generator)
        clock.advance(by: later)
        try await alice.engine.validateKeyPackage(event)
        return "accepted"
    }

    /// alice's answer to bob's honest key-package event with one bit of its Schnorr signature
    /// flipped (nobody can re-sign it: the id and every tag stay bob's).
    static func aliceValidatesBobsKeyPackageWithFlippedSignature(seed: UInt64) async throws -> String {
        let clock = HostileMemberTests.TestClock()
        var bench = MemberBench(seed: seed)
        let alice = HostileMemberTests.member("alice", bench: &bench, clock: clock)
        let bob = HostileMemberTests.member("bob", bench: &bench, clock: clock)
        let event = try await bench.keyPackage(of: bob)
        var flipped = event.sig
        flipped[63] ^= 1
        let json = event.json().replacingOccurrences(of: event.sig.hexString, with: flipped.hexString)
        try await alice.engine.validateKeyPackage(try Event.decodeUnverified(JSONValue(parsing: json)))
        return "accepted"
    }

    /// Replaces the tag named `name` with `tag` (removes it when nil).
    static func tag(_ name: String, _ tag: [String]?) -> (inout UnsignedEvent) -> Void {
        { event in
            guard let index = event.tags.firstIndex(where: { $0.first == name }) else { return }
            if let tag { event.tags[index] = tag } else { event.tags.remove(at: index) }
        }
    }

    /// A real Marmot-shaped group of `suite` created by a fresh leaf of alice's identity outside any
    /// engine, whose first commit adds dave's key package (the sender skipping `senderSkips`); dave's
    /// answer to its Welcome, delivered in alice's honest welcome rumor to him (its `e` names dave's
    /// key-package event, its relays are the group's) with the content replaced.
    static func daveOpensForeignWelcome(
        seed: UInt64, suite: CipherSuite, senderSkips: Set<ReceiverCheck> = [], data change: (inout GroupData) -> Void = { _ in },
        rewrite: (GroupData, [UInt8]) -> [UInt8] = { $1 }
    ) async throws -> String {
        var room = try await Room(seed: seed)
        let dave = room.bench.swiftMember("dave")
        let keyPackageEvent = try await room.bench.keyPackage(of: dave)
        let invitee = try KeyPackageEvent.validate(keyPackageEvent, now: room.bench.keyPackageTime).keyPackage
        let added = try await room.alice.engine.addMembers(to: room.group, keyPackages: [keyPackageEvent])
        var generator = room.bench.generator
        let creator = try KeyPackagePrivate.generate(
            suite: suite, credential: .basic(identity: room.alice.pubkey.bytes),
            signatureKeyPair: try suite.generateSignatureKeyPair(using: &generator),
            capabilities: Capabilities(
                cipherSuites: [suite.id], extensions: MarmotCapabilities.keyPackageExtensions, proposals: MarmotCapabilities.proposals),
            lifetime: Lifetime(notBefore: 0, notAfter: .max), using: &generator)
        var data = GroupData(
            nostrGroupID: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }, name: "Foreign", description: "",
            admins: [room.alice.pubkey], relays: MemberBench.relays)
        change(&data)
        let extensions = try MarmotCapabilities.groupContextExtensions(data: data, invitees: [invitee]).map { item in
            item.type == GroupData.extensionType ? Extension(type: item.type, data: rewrite(data, item.data)) : item
        }
        let welcome = try ReceiverCheck.$disabled.withValue(senderSkips) {
            var group = try Group(creating: Array("foreign".utf8), creator: creator, extensions: extensions, using: &generator)
            return try #require(try group.uncheckedCommit(adding: [.add(invitee)], flaw: nil, now: nil, using: &generator).welcome)
        }
        #expect(welcome.cipherSuite == suite.id)
        var rumor = added.welcomeRumors[0]
        rumor.content = Base64Content.encode(try MLSMessage(body: .welcome(welcome)).tlsSerialized())
        let (wrapper, unwrapped) = try room.bench.deliverWelcome(rumor, from: room.alice, to: dave)
        return await welcomeAnswer(of: dave, wrapper: wrapper, rumor: unwrapped)
    }

    /// `member`'s answer to a welcome rumor: "accepted", or the refusal's code and reason.
    static func welcomeAnswer(of member: Member, wrapper: EventID, rumor: UnsignedEvent) async -> String {
        do {
            _ = try await member.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
            return "accepted"
        } catch {
            return "\(error.code.name): \(error.reason)"
        }
    }

    /// alice's honest Welcome to dave, delivered to erin instead (who holds a key package of her own).
    static func erinOpensDavesWelcome(seed: UInt64) async throws -> String {
        var room = try await Room(seed: seed)
        let dave = room.bench.swiftMember("dave")
        let erin = room.bench.swiftMember("erin")
        _ = try await room.bench.keyPackage(of: erin)
        let added = try await room.alice.engine.addMembers(to: room.group, keyPackages: [try await room.bench.keyPackage(of: dave)])
        let (wrapper, unwrapped) = try room.bench.deliverWelcome(added.welcomeRumors[0], from: room.alice, to: erin)
        return await welcomeAnswer(of: erin, wrapper: wrapper, rumor: unwrapped)
    }

    /// What bob's engine makes of application data: the rumor JSON alice's engine writes for
    /// "café" spelled with U+FFFD, its three UTF-8 bytes replaced by the single byte 0xFF
    /// (ApplicationRumor.open, as NativeSwiftEngine reads every application message).
    static func bobReadsRumor(seed: UInt64) throws -> String {
        var generator = TestGenerator(seed: seed)
        let alice = Keypair.generate(using: &generator)
        let rumor = UnsignedEvent(pubkey: alice.publicKey, createdAt: MemberBench.fixedTime, kind: .chatMessage, content: "caf\u{FFFD}")
        var bytes = ApplicationRumor.encode(rumor)
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        let start = try #require((0...(bytes.count - 3)).first { Array(bytes[$0..<$0 + 3]) == replacement })
        bytes.replaceSubrange(start..<start + 3, with: [0xFF])
        do { _ = try ApplicationRumor.open(bytes, sender: .basic(identity: alice.publicKey.bytes)) } catch {
            return "\(error.code.name): \(error.reason)"
        }
        return "accepted"
    }

    /// The outer-layer answer to a kind-445 content of `length` random bytes (GroupEventCipher.open,
    /// as NativeSwiftEngine opens every group event).
    static func openShortContent(seed: UInt64, length: Int) -> String {
        var generator = TestGenerator(seed: seed)
        let content = Base64Content.encode((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        do { _ = try GroupEventCipher.open(content, key: [UInt8](repeating: 7, count: 32)) } catch {
            return "\(error.code.name): \(error.reason)"
        }
        return "accepted"
    }

    /// The new builders' twins without their flaws, which the receiver accepts.
    @Test func flawlessTwinsAreAccepted() async throws {
        #expect(try await Self.aliceValidatesBobsKeyPackage(seed: 90) { _ in } == "accepted")
        #expect(try await Self.daveOpensForeignWelcome(seed: 91, suite: MarmotCapabilities.suite) == "accepted")
    }
}
