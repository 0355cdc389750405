// JUnit XML, the format CI systems ingest: one <testcase> per scenario × engine × seed. A failing
// check becomes <failure> with its clause and the command that reproduces it; a check that could not
// be judged (infrastructure failed) becomes <error>; an unsupported run
// or a known defect becomes <skipped> with the reason, so it is visible without failing the build.

public enum JUnitReport {
    /// The report document for `runs`.
    public static func xml(_ runs: [ScenarioRun], suiteName: String = "marmot-conform") -> String {
        let summary = RunSummary(runs)
        let skipped = summary[.unsupported] + summary[.knownDefect]
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(escape(suiteName))\" tests=\"\(runs.count)\" failures=\"\(summary[.fail])\" errors=\"\(summary[.error])\" skipped=\"\(skipped)\">\n"
        let byFile = Dictionary(grouping: runs, by: \.file)
        for file in byFile.keys.sorted() {
            let group = byFile[file] ?? []
            let groupSummary = RunSummary(group)
            out += "  <testsuite name=\"\(escape(file))\" tests=\"\(group.count)\" failures=\"\(groupSummary[.fail])\" errors=\"\(groupSummary[.error])\""
            out += " skipped=\"\(groupSummary[.unsupported] + groupSummary[.knownDefect])\">\n"
            for run in group { out += testcase(run) }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    static func testcase(_ run: ScenarioRun) -> String {
        let name = "\(run.scenario) [\(run.engine), seed \(run.seed)]"
        var out = "    <testcase name=\"\(escape(name))\" classname=\"\(escape(run.file))\">\n"
        switch run.verdict {
        case .fail:
            for check in run.checks where check.verdict == .fail {
                let message = "\(check.check): \(check.clause)"
                var body = "\(check.detail)\n"
                if let expected = check.expected { body += "expected: \(expected)\n" }
                if let observed = check.observed { body += "observed: \(observed)\n" }
                body += "reproduce: \(run.reproduce)\n"
                if let capsule = run.capsule { body += "capsule: \(capsule)\n" }
                out += "      <failure message=\"\(escape(message))\" type=\"\(escape(check.clause.spec))\">\(escape(body))</failure>\n"
            }
        case .error:
            for check in run.checks where check.verdict == .error {
                let message = "\(check.check): \(check.clause)"
                let body = "\(check.detail)\nreproduce: \(run.reproduce)\n"
                out += "      <error message=\"\(escape(message))\" type=\"infrastructure\">\(escape(body))</error>\n"
            }
        case .unsupported:
            out += "      <skipped message=\"\(escape("unsupported: \(run.notRun ?? "")"))\"/>\n"
        case .knownDefect:
            let details = run.checks.filter { $0.verdict == .knownDefect }.map { "\($0.check): \($0.detail)" }
            out += "      <skipped message=\"\(escape(details.joined(separator: "; ")))\"/>\n"
        case .pass, .info, .unexpectedPass:
            let notes = run.checks.filter { $0.verdict == .info || $0.verdict == .unexpectedPass }
            if !notes.isEmpty {
                let text = notes.map { "\($0.verdict.rawValue) \($0.check) (\($0.clause)): \($0.detail)" }.joined(separator: "\n")
                out += "      <system-out>\(escape(text))</system-out>\n"
            }
        }
        out += "    </testcase>\n"
        return out
    }

    /// XML 1.0 text: the five entities, and characters XML cannot carry replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
