import NativeSwiftEngine
import ScenarioRunner

/// A scenario executor with only our engine (selection `swift`), for tests that run scenarios
/// in-process (the role and fault matrices' mutation checks).
func swiftOnlyExecutor() -> ScenarioExecutor {
    ScenarioExecutor(
        engines: EngineSet(["swift": EngineSet.Entry(factory: { context in
            NativeSwiftEngine(generator: context.generator, clock: context.clock)
        }, deterministic: true)]),
        epochUnixSeconds: 1_700_000_000)
}
