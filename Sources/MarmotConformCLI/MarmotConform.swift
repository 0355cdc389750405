import ArgumentParser
import Foundation

/// `marmot-conform`: the conformance gate's command-line front door.
@main
struct MarmotConform: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marmot-conform",
        abstract: "Conformance gate and interop bench for Marmot group messaging (MLS over Nostr).",
        subcommands: [Run.self]
    )
}

extension MarmotConform {
    /// Runs the scenario files under the given paths.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run conformance scenarios.")

        @Argument(help: "Scenario files or folders (default: scenarios/).")
        var paths: [String] = ["scenarios"]

        func run() throws {
            let files = ScenarioFiles.collect(paths)
            if files.isEmpty {
                print("marmot-conform: no scenario files under \(paths.joined(separator: ", ")); nothing to run yet.")
                print("0 passed, 0 failed")
                return
            }
            print("marmot-conform: found \(files.count) scenario file(s), but the runner lands in Step 5 (issue 6).")
            print("0 passed, 0 failed, \(files.count) skipped")
        }
    }
}

enum ScenarioFiles {
    static func collect(_ paths: [String]) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                let entries = (try? fm.subpathsOfDirectory(atPath: path)) ?? []
                out += entries.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                    .map { (path as NSString).appendingPathComponent($0) }
            } else {
                out.append(path)
            }
        }
        return out
    }
}
