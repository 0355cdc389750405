import ConformanceTestSupport
import EngineInterface
import Foundation
import GroupCore
import NativeSwiftEngine
import ScenarioModel
import ScenarioRunner

/// A scenario executor with only our engine (selection `swift`), for tests that run scenarios
/// in-process (the role and fault matrices' mutation checks).
func swiftOnlyExecutor() -> ScenarioExecutor {
    ScenarioExecutor(
        engines: EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    try NativeSwiftEngine(
                        generator: context.generator, clock: context.clock,
                        stateFile: context.persistent ? context.storageDirectory + "/swift-engine.state" : nil,
                        profile: context.profile, accountKeys: context.accountKey.map { [$0] } ?? [], crashSwitch: context.crashSwitch)
                }, deterministic: true)
        ]),
        epochUnixSeconds: 1_700_000_000)
}

/// Runs the committed scenario at `path` on our engine with `recovery`; true when it passes (the
/// matrices' and families' twins: a cell that passes with a recovery rule and fails without it).
func committedScenarioPasses(
    _ path: String, seed: UInt64 = 1, recovery: CoreConfiguration.Behaviour.Recovery, profile: MarmotProfile = .standard
) async throws -> Bool {
    let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    let scenario = try Scenario(yaml: text, file: path)
    var executor = swiftOnlyExecutor()
    executor.recovery = recovery
    let execution = await executor.execute(scenario, seed: seed, selection: .swift, reproduce: path, profile: profile)
    return execution.run.notRun == nil && execution.run.verdict == .pass
}

/// Every recovery rule on, but what `change` switches off.
func recoveryWithout(_ change: (inout CoreConfiguration.Behaviour.Recovery) -> Void) -> CoreConfiguration.Behaviour.Recovery {
    var recovery = CoreConfiguration.Behaviour.Recovery()
    change(&recovery)
    return recovery
}
