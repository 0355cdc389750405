import DeterministicScheduler
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// Events the world injects: signed as asked, and broken exactly as asked (NIP-01 id and signature).
@Suite struct InjectedEventTests {
    static func recipe(_ breakage: InjectRecipe.Breakage?) throws -> InjectRecipe {
        var stream = SeededGenerator(seed: 1)
        let placeholder = Keypair.generate(using: &stream).publicKey
        return InjectRecipe(
            original: nil, unsigned: UnsignedEvent(pubkey: placeholder, createdAt: 1_700_000_000, kind: .textNote, content: "x"),
            signer: nil, breakage: breakage)
    }

    @Test func unbrokenThrowawayEventVerifies() throws {
        let world = NativeEngineWorldTests.makeWorld(seed: 3)
        let event = try world.makeEvent(Self.recipe(nil))
        try event.verify()
        #expect(event.content == "x")
    }

    @Test(
        arguments: [
            (InjectRecipe.Breakage.signature, NostrError.Code.eventBadSignature), (.id, .eventIDMismatch), (.content, .eventIDMismatch),
            (.createdAt, .eventIDMismatch),
        ] as [(InjectRecipe.Breakage, NostrError.Code)])
    func eachBreakageFailsVerificationAsNamed(_ breakage: InjectRecipe.Breakage, _ code: NostrError.Code) throws {
        let world = NativeEngineWorldTests.makeWorld(seed: 3)
        let event = try world.makeEvent(Self.recipe(breakage))
        let error = #expect(throws: NostrError.self) { try event.verify() }
        #expect(error?.code == code)
    }

    @Test func sameSeedSameInjectedEvent() throws {
        let first = try NativeEngineWorldTests.makeWorld(seed: 9).makeEvent(Self.recipe(.signature))
        let second = try NativeEngineWorldTests.makeWorld(seed: 9).makeEvent(Self.recipe(.signature))
        #expect(first == second)
    }
}
