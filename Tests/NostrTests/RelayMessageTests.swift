import ConformanceTestSupport
import Nostr
import Testing

@Suite struct RelayMessageTests {
    private func signedEvent(seed: UInt64 = 5) throws -> Event {
        var generator = TestGenerator(seed: seed)
        let keypair = Keypair.generate(using: &generator)
        return try UnsignedEvent(pubkey: keypair.publicKey, createdAt: 1, kind: 1, content: "hi")
            .signed(with: keypair, using: &generator)
    }

    @Test func clientMessagesRoundTrip() throws {
        let event = try signedEvent()
        let messages: [ClientMessage] = [
            .event(event),
            .auth(event),
            .request(subscription: "s1", filters: [Filter(kinds: [1]), Filter(limit: 2)]),
            .count(subscription: "c", filters: [Filter(since: 3)]),
            .close("s1"),
        ]
        for message in messages {
            #expect(try ClientMessage(json: message.json()) == message)
        }
    }

    @Test func relayMessagesRoundTrip() throws {
        let event = try signedEvent()
        let messages: [RelayMessage] = [
            .event(subscription: "s", event: event),
            .ok(eventID: event.id.hex, accepted: false, message: "invalid: nope"),
            .endOfStoredEvents("s"),
            .closed(subscription: "s", message: "error: shutting down"),
            .notice("hello"),
            .auth(challenge: "abc"),
            .count(subscription: "s", count: 3),
        ]
        for message in messages {
            #expect(try RelayMessage(json: message.json()) == message)
        }
        #expect(
            RelayMessage.eventFrame(subscription: "s", eventJSON: event.json())
                == RelayMessage.event(subscription: "s", event: event).json())
    }

    @Test(arguments: [
        ("", NostrError.Code.messageNotJSON),
        ("[\"REQ\"", .messageNotJSON),
        ("{\"EVENT\":1}", .messageNotArray),
        ("[]", .messageNotArray),
        ("[1,2]", .messageNotArray),
        ("[\"FOO\"]", .messageUnknownVerb),
        ("[\"EVENT\"]", .messageWrongArity),
        ("[\"REQ\",\"s\"]", .messageWrongArity),
        ("[\"CLOSE\",\"s\",\"t\"]", .messageWrongArity),
        ("[\"CLOSE\",5]", .messageBadType),
        ("[\"REQ\",\"\",{}]", .badSubscriptionID),
        ("[\"REQ\",\"\(String(repeating: "x", count: 65))\",{}]", .badSubscriptionID),
        ("[\"REQ\",\"s\",[]]", .filterNotObject),
        ("[\"EVENT\",{}]", .eventMissingField),
    ])
    func malformedClientFramesFailWithTypedCodes(frame: String, code: NostrError.Code) {
        let error = #expect(throws: NostrError.self) { try ClientMessage(json: frame) }
        #expect(error?.code == code)
    }

    @Test func subscriptionIDOfExactly64CharactersIsAccepted() throws {
        let id = String(repeating: "é", count: 64)
        #expect(try ClientMessage(json: "[\"CLOSE\",\"\(id)\"]") == .close(SubscriptionID(id)))
    }

    @Test func oversizeFramesAreRefusedBeforeParsing() {
        let error = #expect(throws: NostrError.self) { try ClientMessage(json: "[\"CLOSE\",\"s\"]", maximumBytes: 5) }
        #expect(error?.code == .messageOversize)
    }

    @Test func tamperedEventsInsideFramesAreRejected() throws {
        let event = try signedEvent()
        let forged = event.json().replacingFirst("\"content\":\"hi\"", with: "\"content\":\"ho\"")
        let error = #expect(throws: NostrError.self) { try ClientMessage(json: "[\"EVENT\",\(forged)]") }
        #expect(error?.code == .eventIDMismatch)
    }

    @Test(arguments: [
        ("[\"OK\",\"x\",\"true\",\"\"]", NostrError.Code.messageBadType),
        ("[\"OK\",\"x\",true]", .messageWrongArity),
        ("[\"COUNT\",\"s\",{\"n\":1}]", .messageBadType),
        ("[\"EOSE\"]", .messageWrongArity),
        ("[\"REQ\",\"s\",{}]", .messageUnknownVerb),
    ])
    func malformedRelayFramesFailWithTypedCodes(frame: String, code: NostrError.Code) {
        let error = #expect(throws: NostrError.self) { try RelayMessage(json: frame) }
        #expect(error?.code == code)
    }

    @Test func machineReadablePrefixIsTheWordBeforeTheColon() {
        #expect(MachineReadablePrefix(of: "auth-required: please") == .authRequired)
        #expect(MachineReadablePrefix(of: "duplicate: already have it") == .duplicate)
        #expect(MachineReadablePrefix(of: "") == nil)
        #expect(MachineReadablePrefix(of: "no prefix here: x") == nil)
        #expect(MachineReadablePrefix.rateLimited.message("slow down") == "rate-limited: slow down")
    }

    @Test func malformedFrameHintRecoversWhatTheRelayMustEcho() throws {
        let id = String(repeating: "c", count: 64)
        #expect(MalformedFrameHint(json: "[\"EVENT\",{\"id\":\"\(id)\",\"kind\":70000}]").eventID == id)
        #expect(MalformedFrameHint(json: "[\"EVENT\",{\"id\":\"short\"}]").eventID == nil)
        #expect(MalformedFrameHint(json: "[\"REQ\",\"sub\",{\"ids\":[\"ab\"]}]").subscription == "sub")
        #expect(MalformedFrameHint(json: "not json") == MalformedFrameHint(jsonValue: .null))
    }

    @Test func randomAndMutatedFramesNeverTrap() throws {
        var generator = TestGenerator(seed: 2026)
        let event = try signedEvent()
        let valid = [
            ClientMessage.event(event).json(), ClientMessage.request(subscription: "s", filters: [Filter(kinds: [1])]).json(),
            RelayMessage.ok(eventID: event.id.hex, accepted: true, message: "").json(),
        ]
        for frame in valid {
            for mutant in Mutations.mutants(of: Array(frame.utf8), count: 700, using: &generator) {
                let text = String(decoding: mutant, as: UTF8.self)
                _ = try? ClientMessage(json: text)
                _ = try? RelayMessage(json: text)
                _ = MalformedFrameHint(json: text)
            }
        }
        for _ in 0..<500 {
            let text = String(decoding: generator.bytes(Int.random(in: 0..<64, using: &generator)), as: UTF8.self)
            _ = try? ClientMessage(json: text)
            _ = try? RelayMessage(json: text)
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
