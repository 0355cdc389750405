import ArgumentParser
import Foundation
import ScenarioRunner

extension MarmotConform {
    /// Turns a run's JSON report into the certification report an engine team attaches to a release.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a certification report (Markdown, self-contained HTML) from a run's JSON report (run --json).",
            discussion: """
                One section per engine: families × verdicts, coverage by clause (every clause the runs' scenarios \
                cite, with the scenarios and checks that cover it), known defects with links, engine versions, the \
                spec profile, seeds and fingerprints. Without --md or --html the Markdown goes to stdout.
                Exit status: 0 written, 64 the run report cannot be read.
                """)

        @Argument(help: "A JSON report written by `marmot-conform run --json FILE`.")
        var runReport: String

        @Option(help: "Write the Markdown report to this file ('-' for stdout).")
        var md: String?

        @Option(help: "Write the self-contained HTML report to this file.")
        var html: String?

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            // The run report is self-contained: the repository only resolves relative paths.
            let repo = try? repository.locate()
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let input = repo?.input(runReport) ?? URL(fileURLWithPath: runReport, relativeTo: cwd)
            let certification = try Self.read(input)
            func output(_ path: String) -> URL { repo?.output(path) ?? URL(fileURLWithPath: path, relativeTo: cwd) }
            if (md == nil && html == nil) || md == "-" { Console.line(certification.markdown()) }
            if let md, md != "-" {
                try Data(certification.markdown().utf8).write(to: output(md), options: .atomic)
                Console.line("wrote \(output(md).path)")
            }
            if let html {
                try Data(certification.html().utf8).write(to: output(html), options: .atomic)
                Console.line("wrote \(output(html).path)")
            }
        }

        static func read(_ url: URL) throws -> Certification {
            let data: Data
            do { data = try Data(contentsOf: url) } catch { throw usageError("\(url.path): cannot read the run report: \(error)") }
            do { return try Certification(json: data, file: url.path) } catch { throw usageError("\(error)") }
        }
    }
}
