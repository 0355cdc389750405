import Foundation
import NativeSwiftEngine
import Testing

/// `vectors/engine-state/`: state files as builds wrote them. `v2-*` are this build's (format
/// version 2): every later build must load them and write them back unchanged, or bump the
/// version (docs/engine-state-format.md, "Versioning"). `v1-*` are the same recipes as version 1
/// wrote them, before group records were wrapped (issue 30, N6): this build still reads them and
/// writes the version-2 file of the same state. They also seed the `engine-state` fuzz target.
/// `UPDATE_ENGINE_STATE_VECTORS=1 swift test --filter StateFileVectorTests` rewrites the v2 files
/// from their recipes (the v1 files are history and stay as they are).
@Suite struct StateFileVectorTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("vectors/engine-state")

    static func url(_ recipe: StateRecipe, version: Int) -> URL {
        directory.appendingPathComponent("v\(version)-\(recipe.rawValue).state")
    }

    @Test(arguments: StateRecipe.allCases) func versionTwoFilesLoadAndComeBackUnchanged(_ recipe: StateRecipe) async throws {
        let made = try await recipe.bytes()
        if ProcessInfo.processInfo.environment["UPDATE_ENGINE_STATE_VECTORS"] == "1" {
            try Data(made).write(to: Self.url(recipe, version: 2))
        }
        let pinned = Array(try Data(contentsOf: Self.url(recipe, version: 2)))
        #expect(try NativeSwiftEngine.reencodedState(pinned) == pinned, "a version-2 file no longer round-trips")
        #expect(made == pinned, "the recipe now makes other bytes: a format change needs a new version")
    }

    @Test(arguments: StateRecipe.allCases) func versionOneFilesStillLoadAsTheSameState(_ recipe: StateRecipe) throws {
        let old = Array(try Data(contentsOf: Self.url(recipe, version: 1)))
        let current = Array(try Data(contentsOf: Self.url(recipe, version: 2)))
        #expect(try NativeSwiftEngine.reencodedState(old) == current, "a version-1 file no longer loads as the state it held")
    }
}
