import ConformanceTestSupport
import InMemoryRelay
import Nostr
import Testing

/// Malformed frames (not JSON, wrong arity, bad types, oversize) get OK false / CLOSED / NOTICE
/// with a reason, and the connection stays usable.
@Suite struct RelayMalformedInputTests {
    @Test(arguments: [
        ("not json", "NOTICE"),
        ("", "NOTICE"),
        ("{}", "NOTICE"),
        ("[]", "NOTICE"),
        ("[\"FOO\"]", "NOTICE"),
        ("[\"EVENT\"]", "OK"),
        ("[\"EVENT\",{\"id\":\"\(String(repeating: "d", count: 64))\"}]", "OK"),
        ("[\"EVENT\",1,2]", "OK"),
        ("[\"REQ\",\"s\"]", "CLOSED"),
        ("[\"REQ\",\"s\",{\"kinds\":[\"1\"]}]", "CLOSED"),
        ("[\"REQ\",\"s\",{\"#hh\":[\"x\"]}]", "CLOSED"),
        ("[\"REQ\",7,{}]", "NOTICE"),
        ("[\"CLOSE\"]", "NOTICE"),
        ("[\"COUNT\",\"c\",\"x\"]", "CLOSED"),
        ("[\"AUTH\",\"challenge\"]", "OK"),
    ])
    func malformedFrameGetsAReasonedRefusal(frame: String, verb: String) throws {
        var harness = RelayHarness()
        let replies = try harness.send(frame)
        #expect(replies.count == 1)
        let message = try #require(replies.first?.1)
        switch (verb, message) {
        case ("NOTICE", .notice(let text)): #expect(prefix(text) == .invalid)
        case ("OK", .ok(_, false, let text)): #expect(prefix(text) == .invalid)
        case ("CLOSED", .closed(_, let text)): #expect(prefix(text) == .invalid)
        default: Issue.record("expected \(verb), got \(message)")
        }
        try expectUsable(&harness)
    }

    @Test func oversizeFrameGetsANotice() throws {
        var harness = RelayHarness(policy: RelayPolicy(maximumFrameBytes: 600))
        let replies = try harness.send("[\"REQ\",\"s\",{\"#t\":[\"\(String(repeating: "x", count: 700))\"]}]")
        guard case .notice(let text)? = replies.first?.1 else {
            Issue.record("expected NOTICE, got \(replies)")
            return
        }
        #expect(prefix(text) == .invalid)
        try expectUsable(&harness)
    }

    /// Property: random bytes and mutants of valid frames, fed to one connection, are each
    /// answered only with refusals or ordinary answers, never a crash, and the connection still
    /// serves a valid REQ and EVENT afterwards.
    @Test(arguments: [UInt64(1), 2, 3])
    func randomAndMutatedFramesNeverBreakTheConnection(seed: UInt64) throws {
        var harness = RelayHarness(seed: seed)
        var generator = TestGenerator(seed: seed &* 7919)
        let event = try harness.event(.groupEvent, tags: [["h", "g"]])
        let valid = [
            ClientMessage.event(event).json(),
            ClientMessage.request(subscription: "s", filters: [Filter(kinds: [445], tags: ["h": ["g"]], limit: 3)]).json(),
            ClientMessage.close("s").json(),
            ClientMessage.auth(try harness.authEvent(by: harness.alice)).json(),
        ]
        var frames: [String] = []
        for frame in valid {
            frames += Mutations.mutants(of: Array(frame.utf8), count: 250, using: &generator).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        for _ in 0..<250 {
            frames.append(String(decoding: generator.bytes(Int.random(in: 0..<96, using: &generator)), as: UTF8.self))
        }
        for frame in frames {
            let replies = try harness.send(frame)
            for (target, message) in replies where target == ConnectionID(1) {
                switch message {
                case .ok(_, false, let text), .closed(_, let text), .notice(let text):
                    #expect(prefix(text) != nil, "refusal without a prefix: \(text)")
                default: continue
                }
            }
        }
        try expectUsable(&harness)
    }

    private func expectUsable(_ harness: inout RelayHarness) throws {
        harness.now += 100
        let event = try harness.event(1, content: "still here")
        #expect(try harness.ok(event).accepted)
        let replies = try harness.request("after", [Filter(ids: [event.id.hex])])
        #expect(RelayHarness.eventIDs(replies) == [event.id.hex])
    }
}
