import GroupCore
import Testing

/// The actor's state stays grouped in values (docs/group-core.md, "The core's state: books"): a new
/// record goes into the value it belongs to, not onto the actor.
@Suite struct CoreShapeTests {
    @Test func theActorHoldsAtMostFifteenStoredProperties() {
        let core = CoreHarness(seed: 60).core
        // Reflection lists an instance's stored properties (computed ones, like `now`, are not
        // stored): the count the acceptance line of issue 33 sets. The runtime's own actor
        // storage (`$defaultActor`) is not one the source declares.
        let stored = Mirror(reflecting: core).children.compactMap(\.label).filter { !$0.hasPrefix("$") }
        #expect(stored.count <= 15, "\(stored.count) stored properties: \(stored)")
        #expect(stored.contains("commits") && stored.contains("catchUp"), "the reflection sees the actor's fields")
    }
}
