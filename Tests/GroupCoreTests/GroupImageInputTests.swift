import ConformanceTestSupport
import GroupCore
import Nostr
import Testing

/// The core's side of group images that needs no group: refusals, and a blob nobody waits for.
@Suite struct GroupImageInputTests {
    @Test func setImageNamesAChatThatMustExist() async throws {
        var harness = CoreHarness(seed: 31)
        await harness.handle(.start)
        let effects = await harness.handle(
            .action(
                .setImage(
                    chatID: String(repeating: "0", count: 64), image: ImageFile(bytes: [0x89, 0x50], mimeType: "image/png"))))
        #expect(await harness.state().errors.map(\.code) == [.unknownChat])
        // Refused before the engine is asked: nothing is uploaded.
        #expect(!effects.contains { if case .uploadBlob = $0 { true } else { false } })
        await harness.checkUpdates()
    }

    @Test func aBlobNoChatWaitsForChangesNothing() async throws {
        var harness = CoreHarness(seed: 32)
        await harness.handle(.start)
        let before = await harness.state()
        #expect(await harness.handle(.blob(hash: String(repeating: "ab", count: 32), bytes: [1, 2, 3])).isEmpty)
        #expect(await harness.handle(.blob(hash: "not hex at all", bytes: nil)).isEmpty)
        #expect(await harness.state() == before)
    }

    @Test func anImageFilePrintsItsSizeNotItsBytes() {
        // A picture must not put its bytes into every dispatch line (docs/trace-vocabulary.md).
        let action = AppAction.setImage(chatID: "c", image: ImageFile(bytes: Array(repeating: 7, count: 4_096), mimeType: "image/png"))
        #expect(action.traceText == #"set-image chat="c" image={bytes=4096 mime="image/png"}"#)
    }
}
