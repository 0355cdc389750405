// The known-defects ledger: engine failures we have confirmed against the spec, recorded so that
// CI stays green while the defect is reported, and so that a fix shows up as an unexpected pass.
//
//   - engine: mdk
//     version: 0.8.0
//     scenario: two admins rename concurrently
//     check: converged
//     clause: { spec: MIP-03, section: Commit Message Race Conditions }
//     reason: a committer that merged its own losing commit never rolls back
//     link: https://github.com/marmot-protocol/marmot/blob/master/03.md
//     expires: 2027-06-30
//     seeds: [14]          # optional: only runs with these seeds (a race that one schedule hits)
import ScenarioModel

/// One confirmed engine defect.
package struct KnownDefect: Hashable, Sendable {
    package let engine: String
    package let version: String
    package let scenario: String
    package let check: String
    package let clause: Clause
    package let reason: String
    package let link: String
    /// `YYYY-MM-DD`; after this day the entry no longer excuses the failure, forcing a review.
    package let expires: String
    /// The seeds the entry covers, or nil for every seed. A defect that only one schedule reaches (a
    /// race decided by the seed) is listed for that seed alone, so the other seeds' passing runs are
    /// plain passes instead of `unexpected-pass`, and a failure on any other seed still fails.
    package let seeds: Set<UInt64>?
    package let location: SourceLocation?

    package init(
        engine: String, version: String, scenario: String, check: String, clause: Clause, reason: String,
        link: String, expires: String, seeds: Set<UInt64>? = nil, location: SourceLocation? = nil
    ) {
        self.engine = engine
        self.version = version
        self.scenario = scenario
        self.check = check
        self.clause = clause
        self.reason = reason
        self.link = link
        self.expires = expires
        self.seeds = seeds
        self.location = location
    }
}

/// The ledger file, loaded and checked.
package struct DefectLedger: Sendable {
    package let entries: [KnownDefect]

    package init(entries: [KnownDefect]) { self.entries = entries }

    static let required = ["engine", "version", "scenario", "check", "clause", "reason", "link", "expires"]
    static let keys = required + ["seeds"]

    /// Parses a ledger file (a YAML list of entries; every field but `seeds` required).
    package init(yaml text: String, file: String) throws(ScenarioError) {
        let root = try YAMLLoader.load(text, file: file)
        var entries: [KnownDefect] = []
        for node in try root.list("the ledger") {
            let f = try node.fields(of: "a ledger entry", allowed: Self.keys, required: Self.required)
            let clause = try f.required("clause").fields(of: "clause", allowed: ["spec", "section"], required: ["spec", "section"])
            let expiresNode = try f.required("expires")
            let expires = try expiresNode.string("expires")
            guard Self.isDate(expires) else {
                throw ScenarioError(.invalidValue, at: expiresNode.location, "expires must be a date YYYY-MM-DD, found '\(expires)'")
            }
            let checkNode = try f.required("check")
            let key = (
                try f.required("engine").string("engine"), try f.required("scenario").string("scenario"),
                try checkNode.string("check")
            )
            if let position = Self.filePosition(in: key.2) {
                throw ScenarioError(
                    .invalidValue, at: checkNode.location,
                    "check names carry no file position ('\(position)'): name the step, e.g. \"step 'after the race': …\"")
            }
            let seeds = try Self.seeds(f["seeds"])
            if entries.contains(where: { ($0.engine, $0.scenario, $0.check) == key && Self.overlap($0.seeds, seeds) }) {
                throw ScenarioError(
                    .duplicateName, at: f.location, "a second entry for engine \(key.0), scenario '\(key.1)', check '\(key.2)'")
            }
            entries.append(
                KnownDefect(
                    engine: key.0, version: try f.required("version").string("version"), scenario: key.1, check: key.2,
                    clause: Clause(try clause.required("spec").string("spec"), try clause.required("section").string("section")),
                    reason: try f.required("reason").string("reason"), link: try f.required("link").string("link"),
                    expires: expires, seeds: seeds, location: f.location))
        }
        self.entries = entries
    }

    /// A `name.yaml:12:5`-like position inside `text`, if any: check identities must survive
    /// edits that move lines, so a ledger entry naming a position is stale by construction.
    static func filePosition(in text: String) -> String? {
        for suffix in [".yaml:", ".yml:"] {
            guard let range = text.range(of: suffix) else { continue }
            let rest = text[range.upperBound...]
            let line = rest.prefix { $0.isASCII && $0.isNumber }
            guard !line.isEmpty else { continue }
            let start =
                text[..<range.lowerBound].lastIndex(where: { $0 == " " || $0 == "\"" || $0 == "'" }).map { text.index(after: $0) }
                ?? text.startIndex
            return String(text[start..<range.upperBound]) + line
        }
        return nil
    }

    /// `seeds: [14, 20]`: a non-empty list of distinct seeds.
    static func seeds(_ node: YAMLNode?) throws(ScenarioError) -> Set<UInt64>? {
        guard let node else { return nil }
        var seeds = Set<UInt64>()
        for item in try node.list("seeds") {
            let seed = UInt64(try item.integer("a seed", in: 0...Int64.max))
            guard seeds.insert(seed).inserted else {
                throw ScenarioError(.invalidValue, at: item.location, "seed \(seed) is listed twice")
            }
        }
        guard !seeds.isEmpty else { throw ScenarioError(.invalidValue, at: node.location, "seeds, when given, lists at least one seed") }
        return seeds
    }

    /// Two entries for one check may coexist only for disjoint seed lists.
    static func overlap(_ a: Set<UInt64>?, _ b: Set<UInt64>?) -> Bool {
        guard let a, let b else { return true }
        return !a.isDisjoint(with: b)
    }

    /// Whether a ledger entry's `engine` names a run's engine: the same name, or for an interop-matrix
    /// cell (`matrix:swift,mdk,mdk`) an assignment pattern of as many positions, `*` matching any
    /// engine (`matrix:*,mdk,*` excuses every cell whose second free member runs MDK).
    static func engine(_ pattern: String, matches engine: String) -> Bool {
        if pattern == engine { return true }
        guard let wanted = positions(pattern), let actual = positions(engine), wanted.count == actual.count else { return false }
        return zip(wanted, actual).allSatisfy { $0 == "*" || $0 == $1 }
    }

    /// The positions of an assignment as a ledger file and a report write it (`matrix:a,b,…`), nil
    /// for any other engine name. Text against text: a pattern's `*` is no engine.
    static func positions(_ name: String) -> [Substring]? {
        guard name.hasPrefix(EngineSelection.assignmentPrefix) else { return nil }
        return name.dropFirst(EngineSelection.assignmentPrefix.count).split(separator: ",", omittingEmptySubsequences: false)
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    /// Applies the ledger to a run: a listed failing check becomes a known defect (unless the entry
    /// expired before `today`, a `YYYY-MM-DD` string), a listed passing check an unexpected pass.
    package func apply(to run: ScenarioRun, engineVersion: String, today: String) -> ScenarioRun {
        var run = run
        for index in run.checks.indices {
            let check = run.checks[index]
            guard
                let entry = entries.first(where: {
                    Self.engine($0.engine, matches: run.engine) && $0.version == engineVersion && $0.scenario == run.scenario
                        && $0.check == check.check
                        && ($0.seeds?.contains(run.seed) ?? true)
                })
            else { continue }
            switch check.verdict {
            case .fail where entry.expires >= today:
                run.checks[index].verdict = .knownDefect
                run.checks[index].detail = "known defect of \(entry.engine) \(entry.version): \(entry.reason) (\(entry.link))"
            case .fail:
                run.checks[index].detail += " [ledger entry expired on \(entry.expires): review it]"
            case .pass:
                run.checks[index].verdict = .unexpectedPass
                run.checks[index].detail =
                    "listed as a known defect of \(entry.engine) \(entry.version) but passed: remove the ledger entry"
            default:
                break
            }
        }
        return run
    }
}
