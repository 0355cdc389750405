import ConformanceTestSupport
import DeterministicScheduler
import GroupCore
import InMemoryRelay
import Nostr
import Simulation
import Testing

/// The trace vocabulary (docs/trace-vocabulary.md) is the fingerprints' contract: every action and
/// input is written by its own text, never by the compiler's description of the Swift value.
@Suite struct TraceVocabularyTests {
    static let keys: [PublicKey] = {
        var generator = TestGenerator(seed: 2200)
        return (0..<3).map { _ in Keypair.generate(using: &generator).publicKey }
    }()
    static var alice: PublicKey { keys[0] }
    static var bob: PublicKey { keys[1] }
    static var carol: PublicKey { keys[2] }

    /// One sample (or more) of every AppAction case; `everyVerbHasASample` keeps it complete.
    static let actions: [AppAction] = [
        .createChat(peer: bob),
        .createGroup(peers: [bob, carol], name: "Team", description: "d"),
        .createGroup(
            peers: [bob, carol], name: "Team", description: "d", onPartialFailure: .ask, admins: [bob],
            roles: [RoleAssignment(member: carol, role: .moderator)]),
        .addMembers(chatID: "c1", peers: [carol]),
        .addMembers(chatID: "c1", peers: [carol], onPartialFailure: .abort),
        .addMembers(chatID: "c1", peers: [carol], roles: [RoleAssignment(member: carol, role: .observer)]),
        .decide(decisionID: "decision-1", choice: .retry),
        .removeMembers(chatID: "c1", members: [bob]),
        .removeMembers(chatID: "c1", members: [bob], withMessages: true),
        .leave(chatID: "c1"),
        .rename(chatID: "c1", name: "New name"),
        .updateDescription(chatID: "c1", description: "about"),
        .updateRelays(chatID: "c1", relays: ["wss://a.test/", "wss://b.test/"]),
        .rotateRouting(chatID: "c1"),
        .disband(chatID: "c1"),
        .setImage(chatID: "c1", image: ImageFile(bytes: [1, 2, 3], mimeType: "image/png")),
        .sendMessage(chatID: "c1", text: "say \"hi\" = ok"),
        .openChat(chatID: "c1"),
        .loadOlderMessages(chatID: "c1"),
        .selfUpdate(chatID: "c1"),
        .setRole(chatID: "c1", member: bob, role: .admin),
        .deleteMessage(chatID: "c1", messageID: "m1"),
        .block(chatID: "c1", member: bob),
        .unblock(chatID: "c1", member: bob),
        .setPreferences(chatID: "c1", preferences: GroupPreferences()),
        .setRoles(chatID: "c1", roles: [RoleAssignment(member: bob, role: .admin), RoleAssignment(member: carol, role: .member)]),
        .sendMedia(chatID: "c1", text: "voice", media: MediaAttachment(url: "https://blob.test/x", mimeType: "audio/ogg")),
        .startDirectMessage(chatID: "c1", member: carol),
        .react(chatID: "c1", messageID: "m1", emoji: "+"),
        .publishRoleTable(chatID: "c1"),
        .createGroupLink(chatID: "c1", role: .member, approval: true),
        .changeGroupLink(chatID: "c1", role: .observer),
        .deleteGroupLink(chatID: "c1"),
        .admitJoin(chatID: "c1", requester: carol, role: .member),
        .rejectJoin(chatID: "c1", requester: carol),
        .joinByLink(admin: alice, token: "tok"),
        .acceptInvitation(welcomeID: "w1"),
        .declineInvitation(welcomeID: "w1"),
        .openLink(text: "marmot:join/npub1x/tok"),
        .joinPrepared(token: "tok"),
        .cancelPrepared(token: "tok"),
        .deleteGroup(chatID: "c1", keepHistory: true),
        .deleteGroup(chatID: "c1", keepHistory: false, notify: false),
        .shareHistory(chatID: "c1", member: carol),
        .forged(.sendMessage(chatID: "c1", text: "forged")),
        .markRead(chatID: "c1"),
        .mute(chatID: "c1"),
        .unmute(chatID: "c1"),
        .createChannel(relays: [bob], name: "News", description: "", welcomeMessage: "hi", coOwners: [carol]),
        .retryChannel(channelID: "ch1"),
        .testChannelRelays(channelID: "ch1"),
        .joinChannel(ChannelLink(channelID: "ch1", name: "News", owners: [alice], relays: [bob])),
        .retryJoinChannel(channelID: "ch1"),
        .broadcast(channelID: "ch1", text: "news"),
        .leaveChannel(channelID: "ch1"),
        .deleteChannel(channelID: "ch1"),
    ]

    /// One sample of every CoreInput case.
    static let inputs: [CoreInput] = [
        .start,
        .action(.leave(chatID: "c1")),
        .relay(url: "wss://a.test/", message: .endOfStoredEvents(SubscriptionID("sub-1"))),
        .relayFrame(url: "wss://a.test/", frame: #"["NOTICE","hello"]"#),
        .relayUnreachable(url: "wss://a.test/"),
        .relayReachable(url: "wss://a.test/"),
        .timer(TimerToken(7)),
        .blob(hash: "ab", bytes: [1, 2]),
        .blob(hash: "cd", bytes: nil),
    ]

    /// The Swift case name of an enum value (what `String(describing:)` would start with).
    static func caseName(_ value: Any) -> String {
        Mirror(reflecting: value).children.first?.label ?? String(describing: value)
    }

    @Test func everyVerbHasASample() {
        #expect(Set(Self.actions.map(\.verb)) == Set(AppAction.Verb.allCases))
        #expect(Set(Self.inputs.map(\.verb)) == Set(CoreInput.Verb.allCases))
        // One verb per case: as many distinct Swift case names as verbs.
        #expect(Set(Self.actions.map(Self.caseName)).count == AppAction.Verb.allCases.count)
        #expect(Set(Self.inputs.map(Self.caseName)).count == CoreInput.Verb.allCases.count)
    }

    @Test func everyTextIsTheVocabularysNotSwiftsDescription() {
        for action in Self.actions {
            let text = action.traceText
            #expect(text.hasPrefix(action.verb.rawValue), "\(text)")
            #expect(text != String(describing: action))
            // No reflection: no Swift case name with its parenthesis, no labels, no type names.
            #expect(!text.contains("\(Self.caseName(action))("), "\(text)")
            #expect(!text.contains("chatID:") && !text.contains("GroupCore.") && !text.contains("PublicKey"), "\(text)")
            #expect(text == action.traceText, "deterministic")
        }
        for input in Self.inputs {
            let text = input.traceText
            #expect(text.hasPrefix(input.verb.rawValue), "\(text)")
            // (A case without parameters, `start`, reads as its name either way.)
            #expect(Mirror(reflecting: input).children.isEmpty || text != String(describing: input))
            #expect(!text.contains("\(Self.caseName(input))(") && !text.contains("url:"), "\(text)")
        }
        // Distinct samples read differently: every parameter that differs is written.
        #expect(Set(Self.actions.map(\.traceText)).count == Self.actions.count)
        #expect(Set(Self.inputs.map(\.traceText)).count == Self.inputs.count)
    }

    /// AppAction has no twin cases (`addMembersWithPolicy` and the like): an option is a parameter.
    @Test func noCaseIsATwinNamedWith() {
        for action in Self.actions {
            let name = Self.caseName(action)
            #expect(name.range(of: #"[a-z]With[A-Z]"#, options: .regularExpression) == nil, "\(name)")
        }
    }

    @Test func textsAreTheDocumentedOnes() {
        let b = Self.bob.hex
        let c = Self.carol.hex
        #expect(
            AppAction.createGroup(peers: [Self.bob], name: "Team", description: "").traceText
                == #"create-group peers=[\#(b)] name="Team" description="" on-partial-failure=proceed admins=[] roles=[]"#)
        #expect(
            AppAction.addMembers(chatID: "c1", peers: [Self.carol], roles: [RoleAssignment(member: Self.carol, role: .observer)]).traceText
                == #"add-members chat="c1" peers=[\#(c)] on-partial-failure=proceed roles=[\#(c):observer]"#)
        #expect(
            AppAction.removeMembers(chatID: "c1", members: [Self.bob], withMessages: true).traceText
                == #"remove-members chat="c1" members=[\#(b)] with-messages=true"#)
        #expect(
            AppAction.deleteGroup(chatID: "c1", keepHistory: false, notify: false).traceText
                == #"delete-group chat="c1" keep-history=false notify=false"#)
        #expect(AppAction.forged(.leave(chatID: "c1")).traceText == #"forged leave chat="c1""#)
        #expect(AppAction.sendMessage(chatID: "c1", text: "a \"b\"\nc\\").traceText == #"send-message chat="c1" text="a \"b\"\nc\\""#)
        #expect(
            AppAction.setImage(chatID: "c", image: ImageFile(bytes: Array(repeating: 7, count: 4_096), mimeType: "image/png")).traceText
                == #"set-image chat="c" image={bytes=4096 mime="image/png"}"#)
        #expect(CoreInput.timer(TimerToken(7)).traceText == "timer token=t7")
        #expect(CoreInput.blob(hash: "cd", bytes: nil).traceText == #"blob hash="cd" bytes=none"#)
    }

    /// The folded options are parameters: changing one changes the text.
    @Test func foldedOptionsChangeTheText() {
        let pairs: [(AppAction, AppAction)] = [
            (.addMembers(chatID: "c", peers: [Self.bob]), .addMembers(chatID: "c", peers: [Self.bob], onPartialFailure: .abort)),
            (.removeMembers(chatID: "c", members: [Self.bob]), .removeMembers(chatID: "c", members: [Self.bob], withMessages: true)),
            (.deleteGroup(chatID: "c", keepHistory: true), .deleteGroup(chatID: "c", keepHistory: true, notify: false)),
            (
                .createGroup(peers: [Self.bob], name: "T", description: ""),
                .createGroup(peers: [Self.bob], name: "T", description: "", roles: [RoleAssignment(member: Self.bob, role: .admin)])
            ),
        ]
        for (plain, optioned) in pairs { #expect(plain.traceText != optioned.traceText) }
    }

    /// The world writes a dispatched action by its vocabulary text, and a timer by its token's.
    @Test func theWorldTracesTheVocabulary() async throws {
        let world = World(configuration: WorldConfiguration(seed: 5), makeEngine: { _ in RefusingEngine() })
        world.network.addFault(FaultRule(scope: .member("alice"), direction: .toMember, action: .delay(.milliseconds(5))))
        #expect(world.network.trace.entries.contains { $0.detail == "install delay 5000 us on member alice to-member" })
        try await world.addMember("alice")
        await world.runUntilQuiescent()
        let action = AppAction.rename(chatID: "nowhere", name: "x")
        await world.dispatch("alice", action)
        let dispatches = world.log.entries.filter { $0.category == "dispatch" }
        #expect(dispatches.map(\.detail) == [action.traceText])
        for entry in world.log.entries where entry.category == "timer" {
            #expect(entry.detail.range(of: #"^t[0-9]+$"#, options: .regularExpression) != nil, "\(entry.detail)")
        }
    }
}
