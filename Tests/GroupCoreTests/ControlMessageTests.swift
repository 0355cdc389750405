import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// Role-table control messages are untrusted input: every malformed one is a typed error.
@Suite struct ControlMessageTests {
    static let target: PublicKey = {
        var generator = TestGenerator(seed: 4450)
        return Keypair.generate(using: &generator).publicKey
    }()

    static let samples: [ControlMessage] = [
        ControlMessage(.setRole(target: target, role: .moderator), at: 1_700_000_100),
        ControlMessage(.delete(messageID: String(repeating: "ab", count: 32)), at: 7),
        ControlMessage(.block(target), at: 8),
        ControlMessage(.unblock(target), at: 9),
        ControlMessage(.snapshot(roles: [target: .owner], blocked: [target], link: nil), at: 10),
        ControlMessage(
            .snapshot(
                roles: [:], blocked: [],
                link: GroupLinkState(token: String(repeating: "0f", count: 16), role: .observer, approval: true, admin: target)), at: 11),
        ControlMessage(.link(token: String(repeating: "0f", count: 16), role: .member, approval: false), at: 12),
        ControlMessage(.joinDecided(requester: target, accepted: true), at: 13),
        ControlMessage(.deleteGroup(keepHistory: false), at: 14),
        ControlMessage(.deleteGroup(keepHistory: true, notify: false), at: 14),
        ControlMessage(.purge(target), at: 15),
        ControlMessage(.preferences(GroupPreferences()), at: 16),
        ControlMessage(.preferences(Self.mediaOff), at: 18),
        ControlMessage(.directMessage(target: target), at: 19),
        ControlMessage(.invitationRole(target: target, role: .observer), at: 20),
        ControlMessage(.setRoles([RoleAssignment(member: target, role: .admin)]), at: 21),
    ]

    static let mediaOff: GroupPreferences = {
        var preferences = GroupPreferences()
        preferences.voiceMessages = false
        preferences.files = false
        preferences.directMessages = false
        return preferences
    }()

    /// The newer switches are written only when off (absent means on), so clients that know only
    /// the first five fields still read preferences that leave them on.
    @Test func defaultPreferencesLeaveTheNewerSwitchesOut() throws {
        let text = ControlMessage(.preferences(GroupPreferences()), at: 16).json()
        #expect(!text.contains("voice-messages") && !text.contains("files") && !text.contains("direct-messages"))
        #expect(ControlMessage(.preferences(Self.mediaOff), at: 16).json().contains(#""voice-messages":false"#))
        let old =
            #"{"v":1,"type":"preferences","at":1,"seq":0,"preferences":{"reactions":true,"full-deletion":true,"disappear-after":0,"history-for-new-members":true,"welcome":""}}"#
        #expect(try ControlMessage(json: old) == ControlMessage(.preferences(GroupPreferences()), at: 1))
        // The trace writes every switch, on or off (docs/trace-vocabulary.md).
        #expect(
            GroupPreferences().traceText
                == #"{reactions=true full-deletion=true disappear-after=0 history-for-new-members=true welcome="" voice-messages=true files=true direct-messages=true}"#
        )
    }

    @Test(arguments: samples + [ControlMessage(.joined, at: 17, seq: 3)]) func roundTrips(_ message: ControlMessage) throws {
        #expect(try ControlMessage(json: message.json()) == message)
    }

    /// `notify` is written only when false: absent means members are told.
    @Test func deletionThatTellsLeavesNotifyOut() throws {
        let told = ControlMessage(.deleteGroup(keepHistory: true), at: 14).json()
        #expect(!told.contains("notify"))
        #expect(told == #"{"at":14,"keep-history":true,"seq":0,"type":"delete-group","v":1}"#)
        #expect(ControlMessage(.deleteGroup(keepHistory: true, notify: false), at: 14).json().contains(#""notify":false"#))
        let bad = #"{"at":14,"keep-history":true,"notify":"no","seq":0,"type":"delete-group","v":1}"#
        #expect(throws: CoreError.self) { try ControlMessage(json: bad) }
    }

    @Test func rejectsWhatIsNotItsGrammar() {
        let bad = [
            "", "[]", "{}", #"{"v":2,"type":"block","at":1,"target":"00"}"#, #"{"v":1,"type":"block","at":-1}"#,
            #"{"v":1,"type":"set-role","at":1,"target":"\#(Self.target.hex)","role":"king"}"#,
            #"{"v":1,"type":"delete","at":1,"message":"short"}"#, #"{"v":1,"type":"launch","at":1,"seq":0}"#,
            #"{"v":1,"type":"joined","at":1}"#,
            #"{"v":1,"type":"snapshot","at":1,"roles":{"zz":"owner"},"blocked":[]}"#,
            #"{"v":1,"type":"set-roles","at":1,"seq":0,"roles":{}}"#,
            #"{"v":1,"type":"set-roles","at":1,"seq":0,"roles":{"\#(Self.target.hex)":"king"}}"#,
            #"{"v":1,"type":"invitation-role","at":1,"seq":0,"target":"\#(Self.target.hex)"}"#,
            #"{"v":1,"type":"direct-message","at":1,"seq":0,"target":"zz"}"#,
            #"{"v":1,"type":"preferences","at":1,"seq":0,"preferences":{"reactions":true,"full-deletion":true,"disappear-after":0,"history-for-new-members":true,"welcome":"","files":"no"}}"#,
        ]
        for text in bad {
            #expect(throws: CoreError.self) { try ControlMessage(json: text) }
            do { _ = try ControlMessage(json: text) } catch { #expect(error.code == .malformedControl) }
        }
    }

    /// Prefixes and seeded mutations of valid messages decode or fail with a typed error, never trap.
    @Test func survivesHostileMutations() {
        var generator = TestGenerator(seed: 4451)
        for message in Self.samples {
            let bytes = Array(message.json().utf8)
            let inputs = Mutations.properPrefixes(of: bytes).map(Array.init) + Mutations.mutants(of: bytes, count: 200, using: &generator)
            for input in inputs {
                let text = String(decoding: input, as: UTF8.self)
                do { _ = try ControlMessage(json: text) } catch { #expect(error.code == .malformedControl) }
            }
        }
    }
}
