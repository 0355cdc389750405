import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import Testing

/// Issue 20: bob's engine keeps its state in a file, is dropped and re-created from that file at
/// every interesting point of a three-member group's life, and must go on exactly as a twin that
/// never stopped (same inputs, same random stream): the same events out, the same state inside.
@Suite struct StateFileRestartTests {
    /// bob, restartable, and his twin; both are given every input bob is given.
    final class RestartingBob {
        let path: String
        let stream: ContinuingStream
        let keypair: Keypair
        var engine: NativeSwiftEngine
        let twin: NativeSwiftEngine
        var restarts = 0

        init(path: String, seed: UInt64, keypair: Keypair) throws {
            self.path = path
            self.keypair = keypair
            stream = ContinuingStream(seed: seed)
            engine = try .persisting(at: path, stream: stream)
            let now = MemberBench.fixedTime
            twin = NativeSwiftEngine(generator: TestGenerator(seed: seed), clock: { now })
        }

        var member: Member { Member(name: "bob", keypair: keypair, engine: engine) }

        /// Drops the engine and starts a new one from the file; nothing may be lost on the way.
        func restart(_ step: String) async throws {
            let before = try await engine.stateBytes()
            let groups = try await engine.groups()
            var digests: [ExactGroupState] = []
            for group in groups { digests.append(try await engine.exactState(of: group.mlsGroupID)) }
            engine = try .persisting(at: path, stream: stream)
            restarts += 1
            #expect(try await engine.stateBytes() == before, "\(step): the restarted engine holds what the stopped one held")
            #expect(try await engine.groups() == groups, "\(step): the same groups")
            for (group, digest) in zip(groups, digests) {
                #expect(try await engine.exactState(of: group.mlsGroupID) == digest, "\(step): the same exact state")
            }
            #expect(await engine.writeCount == 0, "\(step): loading writes nothing")
        }

        /// bob and his twin hold the same state, byte for byte.
        func expectTwin(_ step: String) async throws {
            #expect(try await engine.stateBytes() == twin.stateBytes(), "\(step): bob differs from his twin")
        }
    }

    @Test func bobRestartsAtEveryPointAndGoesOnAsHisTwinWould() async throws {
        let directory = try StateDirectory()
        var bench = MemberBench(seed: 2020)
        let alice = bench.swiftMember("alice")
        let carol = bench.swiftMember("carol")
        let bob = try RestartingBob(
            path: directory.path + "/bob.state", seed: bench.generator.next(), keypair: Keypair.generate(using: &bench.generator))
        #expect(!FileManager.default.fileExists(atPath: bob.path), "nothing changed yet, nothing written")

        // A key package: its private part must survive, or the welcome cannot be opened.
        let bobKeyPackage = try await bench.keyPackage(of: bob.member)
        let twinDraft = try await bob.twin.createKeyPackage(for: bob.keypair.publicKey, relays: MemberBench.relays, protected: false)
        #expect(bobKeyPackage.content == twinDraft.content, "the twin made the same key package")
        try await bob.restart("after the key package")

        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [bobKeyPackage, try await bench.keyPackage(of: carol)], name: "Durable",
                relays: MemberBench.relays, admins: [alice.pubkey]))
        let group = created.group.mlsGroupID
        let (wrapperID, rumor) = try bench.deliverWelcome(created.welcomeRumors[0], from: alice, to: bob.member)
        let pending = try await bob.engine.processWelcome(wrapperID: wrapperID, rumor: rumor)
        _ = try await bob.twin.processWelcome(wrapperID: wrapperID, rumor: rumor)
        try await bob.restart("with a processed welcome not yet accepted")
        // processWelcome's answer names the key package it opened with (for the app core's N12
        // check); the stored summary does not keep it (it is not in the state file).
        var stored = pending
        stored.keyPackageRef = nil
        #expect(try await bob.engine.pendingWelcomes() == [stored])
        _ = try await bob.engine.acceptWelcome(pending.id)
        _ = try await bob.twin.acceptWelcome(pending.id)
        try await bob.restart("after joining")
        _ = try await bench.join(carol, rumor: created.welcomeRumors[1], from: alice, groupName: "Durable")
        try await bob.expectTwin("joined")

        let one = try await Self.exchange("one", from: alice, to: [carol], bob: bob, in: group)
        try await bob.restart("after receiving a message")
        // What the state file cannot show by re-encoding itself, behaviour shows: a replay is
        // still known as one (the set of handled events survived).
        #expect(try await bob.engine.processMessage(one) == .unprocessable(group, reason: "duplicate"))
        #expect(try await bob.twin.processMessage(one) == .unprocessable(group, reason: "duplicate"))
        try await Self.exchange("two", from: carol, to: [alice], bob: bob, in: group)
        try await Self.exchange("three", from: alice, to: [carol], bob: bob, in: group)
        try await bob.restart("after receiving more messages")
        try await bob.expectTwin("messages received")

        // A commit staged, the engine stopped before it is merged, then cleared.
        let dropped = try await bob.engine.selfUpdate(in: group)
        #expect(try await bob.twin.selfUpdate(in: group) == dropped, "the same commit from the same state and stream")
        try await bob.restart("between staging a commit and clearing it")
        try await bob.engine.clearPendingCommit(in: group)
        try await bob.twin.clearPendingCommit(in: group)
        try await bob.restart("after clearing the staged commit")
        try await bob.expectTwin("cleared")

        // A commit staged, the engine stopped, then merged and processed by the others.
        let merged = try await bob.engine.selfUpdate(in: group)
        #expect(try await bob.twin.selfUpdate(in: group) == merged)
        try await bob.restart("between staging a commit and merging it")
        try await bob.engine.mergePendingCommit(in: group)
        try await bob.twin.mergePendingCommit(in: group)
        try await bob.restart("after merging his commit")
        for other in [alice, carol] { #expect(try await other.engine.processMessage(merged.event) == .commit(group)) }

        // A commit staged, the engine stopped, and the relay's echo merges it (MIP-03 own-commit path):
        // the pending commit's event must have survived for the echo to be recognised.
        let echoed = try await bob.engine.selfUpdate(in: group)
        #expect(try await bob.twin.selfUpdate(in: group) == echoed)
        try await bob.restart("between staging a commit and its echo")
        #expect(try await bob.engine.processMessage(echoed.event) == .commit(group))
        #expect(try await bob.twin.processMessage(echoed.event) == .commit(group))
        for other in [alice, carol] { #expect(try await other.engine.processMessage(echoed.event) == .commit(group)) }
        try await bob.restart("after his commit's echo")
        try await bob.expectTwin("own commits merged")

        // Another member's commit, received after a restart, then bob writes in the new epoch.
        let rename = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "Renamed"))
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await bob.engine.processMessage(rename.event) == .commit(group))
        #expect(try await bob.twin.processMessage(rename.event) == .commit(group))
        #expect(try await carol.engine.processMessage(rename.event) == .commit(group))
        try await bob.restart("after receiving a commit")
        let bobKey = bob.keypair.publicKey
        let fromBob = try await bob.engine.createMessage(in: group, sender: bobKey, kind: .chatMessage, content: "back", tags: [])
        #expect(try await bob.twin.createMessage(in: group, sender: bobKey, kind: .chatMessage, content: "back", tags: []) == fromBob)
        try await bob.restart("after sending a message")
        // The relay's echo of his own message is still known as his (his own events survived).
        guard case .applicationMessage(let echo) = try await bob.engine.processMessage(fromBob) else {
            Issue.record("bob does not recognise the echo of his own message after a restart")
            return
        }
        #expect(echo.rumor.content == "back")
        for other in [alice, carol] {
            guard case .applicationMessage(let message) = try await other.engine.processMessage(fromBob) else {
                Issue.record("\(other.name) cannot read bob's message after his restarts")
                continue
            }
            #expect(message.rumor.content == "back")
        }

        #expect(try await carol.engine.exactState(of: group) == alice.engine.exactState(of: group))

        // carol leaves: bob holds her proposal (and may have answered it with a commit of his own)
        // across a restart, drops his answer, and takes alice's commit, which names the proposal by
        // reference: only a proposal that survived the restart lets him follow.
        let leave = try await carol.engine.leaveGroup(group)
        let bobAnswer = try await bob.engine.processMessage(leave.event)
        #expect(try await bob.twin.processMessage(leave.event) == bobAnswer)
        try await bob.restart("holding a proposal")
        if case .proposal = bobAnswer {
            try await bob.engine.clearPendingCommit(in: group)
            try await bob.twin.clearPendingCommit(in: group)
            try await bob.restart("after dropping his answer to the proposal")
        }
        guard case .proposal(let aliceAnswer) = try await alice.engine.processMessage(leave.event) else {
            Issue.record("alice, the admin, answers a leave with a commit")
            return
        }
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await bob.engine.processMessage(aliceAnswer.event) == .commit(group))
        #expect(try await bob.twin.processMessage(aliceAnswer.event) == .commit(group))
        try await bob.restart("after the commit that took the proposal")

        // Converged: alice and bob (and his twin) at the epoch five commits reach.
        let reference = try await alice.engine.exactState(of: group)
        #expect(reference.epoch == 5)
        #expect(try await bob.engine.exactState(of: group) == reference)
        #expect(try await bob.twin.exactState(of: group) == reference)
        #expect(try await bob.engine.members(of: group) == [alice.pubkey, bob.keypair.publicKey].sorted())
        try await bob.expectTwin("end")
        #expect(try await bob.engine.group(group).name == "Renamed")
        #expect(try await bob.engine.messages(in: group).map(\.rumor.content) == ["one", "two", "three", "back"])
        #expect(bob.restarts == 16)
    }

    /// The file is written after an operation that changed the state and only then.
    @Test func writesOnlyWhenTheStateChanged() async throws {
        let directory = try StateDirectory()
        var bench = MemberBench(seed: 2021)
        let alice = bench.swiftMember("alice")
        let engine = try NativeSwiftEngine.persisting(at: directory.path + "/carol.state", stream: ContinuingStream(seed: 5))
        let carol = Member(name: "carol", keypair: Keypair.generate(using: &bench.generator), engine: engine)

        let keyPackage = try await bench.keyPackage(of: carol)
        #expect(await engine.writeCount == 1, "the key package's private part is new state")
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [keyPackage], name: "Quiet", relays: MemberBench.relays, admins: [alice.pubkey]))
        _ = try await bench.join(carol, rumor: created.welcomeRumors[0], from: alice, groupName: "Quiet")
        let joined = await engine.writeCount
        #expect(joined == 3, "processing and accepting the welcome each changed the state")

        // Reads, a refused operation and a failed validation change nothing.
        let group = created.group.mlsGroupID
        _ = try await engine.groups()
        _ = try await engine.exactState(of: group)
        _ = try await engine.messages(in: group)
        try await engine.validateKeyPackage(keyPackage)
        await #expect(throws: EngineError.self) { try await engine.addMembers(to: group, keyPackages: [keyPackage]) }
        #expect(await engine.writeCount == joined)

        // A message written changes the state (ratchet, own events); its echo does not.
        let sent = try await engine.createMessage(in: group, sender: carol.pubkey, kind: .chatMessage, content: "hi", tags: [])
        #expect(await engine.writeCount == joined + 1)
        guard case .applicationMessage = try await engine.processMessage(sent) else {
            Issue.record("the echo of carol's own message")
            return
        }
        #expect(await engine.writeCount == joined + 1, "the echo of our own message changes nothing")
    }

    /// Delivers one message to bob, his twin and `others`.
    @discardableResult
    static func exchange(_ content: String, from sender: Member, to others: [Member], bob: RestartingBob, in group: MLSGroupID)
        async throws -> Event
    {
        let event = try await sender.engine.createMessage(in: group, sender: sender.pubkey, kind: .chatMessage, content: content, tags: [])
        for receiver in others + [bob.member, Member(name: "twin", keypair: bob.keypair, engine: bob.twin)] {
            guard case .applicationMessage(let message) = try await receiver.engine.processMessage(event) else {
                Issue.record("\(receiver.name) did not read \(sender.name)'s \"\(content)\"")
                continue
            }
            #expect(message.rumor.content == content)
        }
        return event
    }
}
