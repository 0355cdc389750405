import ArgumentParser
import Foundation
import ScenarioRunner

extension MarmotConform {
    /// Shows the run a failure capsule recorded: its whole trace, or a sequence diagram of it.
    struct Trace: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a failing run from its capsule: the trace, or a sequence diagram (Mermaid, HTML/SVG).",
            discussion: """
                Members and relays are lifelines, frames that arrived are arrows (lost or dropped ones end in a \
                cross), steps and the failing checks (marked FAIL, red in HTML) are notes across the diagram.
                Exit status: 0 written, 64 the capsule cannot be read.
                """)

        @Argument(help: "A capsule written by a failing run (.capsule.json or .capsule.json.gz).")
        var capsule: String

        @Option(help: "Write a standalone HTML page with the diagram as inline SVG to this file.")
        var html: String?

        @Option(help: "Write the diagram as Mermaid text to this file ('-' for stdout).")
        var mermaid: String?

        @Option(help: "Draw at most this many trace entries (the last ones).")
        var limit: Int?

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            // A capsule is self-contained: the repository is only needed to resolve a relative path.
            let repo = try? repository.locate()
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let input = repo?.input(capsule) ?? URL(fileURLWithPath: capsule, relativeTo: cwd)
            let recorded = try CapsuleFile.read(input)
            let diagram = SequenceDiagram(capsule: recorded, limit: limit)
            func output(_ path: String) -> URL { repo?.output(path) ?? URL(fileURLWithPath: path, relativeTo: cwd) }
            if let mermaid {
                if mermaid == "-" {
                    Console.line(diagram.mermaid())
                } else {
                    try Data(diagram.mermaid().utf8).write(to: output(mermaid), options: .atomic)
                    Console.line("wrote \(output(mermaid).path)")
                }
            }
            if let html {
                try Data(diagram.html().utf8).write(to: output(html), options: .atomic)
                Console.line("wrote \(output(html).path)")
            }
            if mermaid == nil, html == nil {
                Console.line("\(recorded.scenarioFile) [\(recorded.engine), seed \(recorded.seed)]: \(recorded.trace.count) trace entries")
                var steps = recorded.steps[...]
                for (index, line) in recorded.trace.enumerated() {
                    while let step = steps.first, step.traceIndex <= index {
                        Console.line("== \(step.title) at \(step.location)")
                        steps = steps.dropFirst()
                    }
                    Console.line("  \(line)")
                }
                for failure in recorded.failures { Console.line("FAIL \(failure.check): \(failure.detail)") }
            }
        }
    }
}
