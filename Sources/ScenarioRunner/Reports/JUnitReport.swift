// JUnit XML, the format CI systems ingest: one <testcase> per scenario × engine × seed, with its
// wall-clock `time` and <properties> (engine, seed, fingerprint, reproduce command). A failing
// check becomes <failure> with its clause and the command that reproduces it; a check that could not
// be judged (infrastructure failed) becomes <error>; an unsupported run
// or a known defect becomes <skipped> with the reason, so it is visible without failing the build.

package enum JUnitReport {
    /// The report document for `timed` runs.
    package static func xml(_ timed: [TimedRun], suiteName: String = "marmot-conform") -> String {
        let summary = RunSummary(timed.map(\.run))
        let skipped = summary[.unsupported] + summary[.knownDefect]
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites name=\"\(escape(suiteName))\" tests=\"\(timed.count)\" failures=\"\(summary[.fail] + summary[.unexpectedPass])\" errors=\"\(summary[.error])\""
        out += " skipped=\"\(skipped)\" time=\"\(seconds(timed))\">\n"
        let byFile = Dictionary(grouping: timed, by: \.run.file)
        for file in byFile.keys.sorted() {
            let group = byFile[file] ?? []
            let groupSummary = RunSummary(group.map(\.run))
            out +=
                "  <testsuite name=\"\(escape(file))\" tests=\"\(group.count)\" failures=\"\(groupSummary[.fail] + groupSummary[.unexpectedPass])\" errors=\"\(groupSummary[.error])\""
            out += " skipped=\"\(groupSummary[.unsupported] + groupSummary[.knownDefect])\" time=\"\(seconds(group))\">\n"
            for entry in group { out += testcase(entry) }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Seconds with millisecond precision, as JUnit consumers expect (`0.125`).
    static func seconds(_ timed: [TimedRun]) -> String {
        format(timed.reduce(0) { $0 + $1.seconds })
    }

    static func format(_ seconds: Double) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    static func properties(_ run: ScenarioRun) -> String {
        var pairs = [("engine", run.engine), ("seed", String(run.seed))]
        if let fingerprint = run.fingerprint { pairs.append(("fingerprint", fingerprint)) }
        pairs.append(("reproduce", run.reproduce))
        if let capsule = run.capsule { pairs.append(("capsule", capsule)) }
        var out = "      <properties>\n"
        for (name, value) in pairs { out += "        <property name=\"\(escape(name))\" value=\"\(escape(value))\"/>\n" }
        return out + "      </properties>\n"
    }

    static func testcase(_ timed: TimedRun) -> String {
        let run = timed.run
        let name = "\(run.scenario) [\(run.engine), seed \(run.seed)]"
        var out = "    <testcase name=\"\(escape(name))\" classname=\"\(escape(run.file))\" time=\"\(format(timed.seconds))\">\n"
        out += properties(run)
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
        case .unexpectedPass:
            // A stale ledger entry fails the gate (the command's exit status says so unless
            // --allow-unexpected-pass), so a CI page shows it red too, naming the entry to remove.
            for check in run.checks where check.verdict == .unexpectedPass {
                let message = "\(check.check): \(check.clause)"
                let body =
                    "unexpected pass: the ledger lists this check as a known defect and it passed; remove the entry\n\(check.detail)\n"
                out += "      <failure message=\"\(escape(message))\" type=\"stale-ledger-entry\">\(escape(body))</failure>\n"
            }
        case .pass, .info:
            let notes = run.checks.filter { $0.verdict == .info }
            if !notes.isEmpty {
                let text = notes.map { "\($0.verdict.rawValue) \($0.check) (\($0.clause)): \($0.detail)" }.joined(separator: "\n")
                out += "      <system-out>\(escape(text))</system-out>\n"
            }
        }
        out += "    </testcase>\n"
        return out
    }

    /// XML 1.0 text, line breaks kept (failure bodies are multi-line).
    static func escape(_ text: String) -> String { XMLText.escape(text, lineBreaks: .kept) }
}
