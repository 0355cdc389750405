import Testing

@testable import ScenarioRunner

/// The outcome fields `expect` checks but vectors leave out, and the name order chats are compared
/// in: each rule shown to act, and shown not to act where it must not.
@Suite struct ExpectOnlyFieldTests {
    static func chat(_ name: String, epoch: Int64) -> Outcome {
        .map(["name": .string(name), "epoch": .integer(epoch), "is-admin": .bool(true), "others": .list([]), "last-message": .null])
    }

    @Test func vectorsDropExpectOnlyFieldsAndKeepTheRest() {
        let intent = Outcome.map([
            "title": .string("Bob in Team"), "body": .string("hi"), "group": .bool(true), "badge": .integer(3),
            "sound": .string("default"), "type": .string("new_message"),
        ])
        let outcome = Outcome.map([
            "alice": .map([
                "chats": .list([Self.chat("Team", epoch: 2)]), "notifications": .list([intent]),
                "chat-order": .list([.string("Team")]), "open-chat": .null, "errors": .list([]),
            ])
        ])
        let stored = ConformanceRunner.vectorOutcome(outcome)
        #expect(
            stored
                == .map([
                    "alice": .map([
                        "chats": .list([.map(["name": .string("Team"), "epoch": .integer(2)])]),
                        "notifications": .list([.map(["title": .string("Bob in {group}"), "body": .string("hi"), "group": .bool(true)])]),
                        "errors": .list([]),
                    ])
                ]))
    }

    @Test func chatsAreComparedInNameOrderOnlyWhenEveryNameIsItsOwn() throws {
        // Observed sorted by what vectors store (here the epoch puts Beta first).
        let observed = Outcome.list([Self.chat("Beta", epoch: 2), Self.chat("Alpha", epoch: 3)])
        let expected = Outcome.list([.map(["name": .string("Alpha")]), .map(["name": .string("Beta")])])
        let (e, a) = try #require(ExpectationChecks.inNameOrder(expected, observed))
        #expect(e.partialDifferences(from: a, path: "chats").isEmpty)
        // As listed, the same expectation fails: the sorting is what makes it pass.
        #expect(!expected.partialDifferences(from: observed, path: "chats").isEmpty)
        // Two chats with one name (1:1 chats are unnamed) are compared as listed.
        let unnamed = Outcome.list([.map(["name": .string("")]), .map(["name": .string("")])])
        #expect(ExpectationChecks.inNameOrder(unnamed, unnamed) == nil)
        #expect(ExpectationChecks.inNameOrder(.list([.map([:])]), observed) == nil)
    }
}
