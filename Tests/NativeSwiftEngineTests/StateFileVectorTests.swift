import Foundation
import NativeSwiftEngine
import Testing

/// `vectors/engine-state/`: state files of format version 1 as this build writes them. Every later
/// build must load them and write them back unchanged, or bump the version
/// (docs/engine-state-format.md, "Versioning"); they also seed the `engine-state` fuzz target.
/// `UPDATE_ENGINE_STATE_VECTORS=1 swift test --filter StateFileVectorTests` rewrites them from
/// their recipes.
@Suite struct StateFileVectorTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("vectors/engine-state")

    static func url(_ recipe: StateRecipe) -> URL { directory.appendingPathComponent("v1-\(recipe.rawValue).state") }

    @Test(arguments: StateRecipe.allCases) func versionOneFilesLoadAndComeBackUnchanged(_ recipe: StateRecipe) async throws {
        let made = try await recipe.bytes()
        if ProcessInfo.processInfo.environment["UPDATE_ENGINE_STATE_VECTORS"] == "1" {
            try Data(made).write(to: Self.url(recipe))
        }
        let pinned = Array(try Data(contentsOf: Self.url(recipe)))
        #expect(try NativeSwiftEngine.reencodedState(pinned) == pinned, "a version-1 file no longer round-trips")
        #expect(made == pinned, "the recipe now makes other bytes: a format change needs a new version")
    }
}
