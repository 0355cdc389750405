// `--engine` and `--engines` on the command line: the text is parsed into the runner's
// `EngineSelection` here, once (docs/engines.md).
import ArgumentParser
import ScenarioRunner

extension EngineSelection: ExpressibleByArgument {
    package init?(argument: String) { self.init(rawValue: argument) }
    package var defaultValueDescription: String { rawValue }
}

/// A list of engines, `swift,mdk` (`--engines` of a matrix run): at least one, no repeats, no `mixed`.
struct EngineList: ExpressibleByArgument, Equatable {
    let engines: [EngineSelection]

    init?(argument: String) {
        var engines: [EngineSelection] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let engine = EngineSelection(rawValue: String(part)), engine.isSingleEngine, !engines.contains(engine) else { return nil }
            engines.append(engine)
        }
        guard !engines.isEmpty else { return nil }
        self.engines = engines
    }
}
