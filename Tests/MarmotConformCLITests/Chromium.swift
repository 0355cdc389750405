// Headless Chromium (Debian package `chromium`, installed by ci/setup) as the reader of our HTML
// reports: `--dump-dom` prints the document as the browser parsed it, so a DOM check sees what a
// browser renders, not the text we wrote. Missing on a developer machine: the test is skipped with
// that reason; in CI (`CI` set) it runs and a missing browser fails it (Peers.requiredByCI).
import ConformanceTestSupport
import Foundation

enum Chromium {
    static let names = ["chromium", "chromium-browser", "google-chrome"]

    /// The browser on PATH, if any.
    static var executable: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in names {
                let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Whether DOM tests run: always in CI, else when a browser is installed.
    static var shouldRun: Bool { Peers.requiredByCI || executable != nil }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The DOM of `file` as headless Chromium parsed it; a browser that does not answer within
    /// `seconds` is killed and reported, never waited on forever.
    static func dumpDOM(of file: URL, seconds: Double = 120) throws -> String {
        guard let executable else { throw Failure(description: "no chromium on PATH (apt-get install chromium; ci/setup does)") }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = executable
        // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--dump-dom", file.absoluteURL.absoluteString,
        ]
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-dom-\(UUID().uuidString).html")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw Failure(description: "cannot create \(output.path)")
        }
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure(description: "chromium did not finish within \(seconds) s")
        }
        guard process.terminationStatus == 0 else { throw Failure(description: "chromium exited with \(process.terminationStatus)") }
        return try String(contentsOf: output, encoding: .utf8)
    }

    /// The `data-clause` values of the `<tr class="clause">` rows in a DOM dump, unescaped.
    static func clauseRows(in dom: String) -> [String] {
        dom.components(separatedBy: "<tr class=\"clause\" data-clause=\"").dropFirst().map { rest in
            let value = rest.prefix { $0 != "\"" }
            return String(value).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}

/// The clauses scenario files cite (`clauses: [ … ]`), read straight from the YAML text so that the
/// report is checked against the files, not against itself.
enum CitedClauses {
    static func of(_ text: String) -> [String] {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("clauses:") }),
            let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]")
        else { return [] }
        return line[line.index(after: open)..<close].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }.filter { !$0.isEmpty }
    }

    /// Whether a scenario file applies to `profile` (no `profiles:` line: every profile).
    static func applies(_ text: String, to profile: String) -> Bool {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("profiles:") }) else { return true }
        return line.dropFirst("profiles:".count).split(whereSeparator: { "[], ".contains($0) }).contains { $0 == profile }
    }

    /// Every clause cited by the scenario files under `folders` (recursively) that apply to
    /// `profile`, leaving out families on a CI line of their own, as `run scenarios` does.
    static func under(_ folders: [URL], profile: String = "legacy") throws -> Set<String> {
        var out: Set<String> = []
        for folder in folders {
            let entries = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
            let separate = entries.filter { $0.hasSuffix("SEPARATE-CI-LINE") }.map { String($0.dropLast("SEPARATE-CI-LINE".count)) }
            for entry in entries where entry.hasSuffix(".yaml") && !separate.contains(where: { entry.hasPrefix($0) }) {
                let text = try String(contentsOf: folder.appendingPathComponent(entry), encoding: .utf8)
                if applies(text, to: profile) { out.formUnion(of(text)) }
            }
        }
        return out
    }
}
