// Runs scenario files over seeds and engine selections: compares stored vectors, applies the
// known-defects ledger, checks determinism on request, and writes failure capsules.
import EngineInterface
import Foundation
import ScenarioModel

/// What to run and how.
package struct RunRequest: Sendable {
    package var selection: EngineSelection
    package var seeds: [UInt64]
    package var updateVectors: Bool
    package var checkDeterminism: Bool
    /// Where `<scenario stem>.json` outcome vectors live.
    package var vectorsDirectory: URL
    /// Where failure capsules are written.
    package var capsuleDirectory: URL
    package var ledger: DefectLedger
    /// Engine name → version, for the ledger and capsules.
    package var engineVersions: [String: String]
    /// `YYYY-MM-DD`, for ledger expiry.
    package var today: String
    /// The command line that reruns one scenario; the runner appends the file, engine and seed.
    package var commandName: String
    /// How a reproduce command names a scenario file (the CLI makes it absolute, so that the
    /// command works from any directory).
    package var reproducePath: @Sendable (String) -> String = { $0 }
    /// The spec profile the engine is judged by (`--profile`).
    package var profile = MarmotProfile.standard

    package init(
        selection: EngineSelection, seeds: [UInt64], updateVectors: Bool, checkDeterminism: Bool, vectorsDirectory: URL,
        capsuleDirectory: URL, ledger: DefectLedger, engineVersions: [String: String], today: String,
        commandName: String = "marmot-conform"
    ) {
        self.selection = selection
        self.seeds = seeds
        self.updateVectors = updateVectors
        self.checkDeterminism = checkDeterminism
        self.vectorsDirectory = vectorsDirectory
        self.capsuleDirectory = capsuleDirectory
        self.ledger = ledger
        self.engineVersions = engineVersions
        self.today = today
        self.commandName = commandName
    }
}

package struct ConformanceRunner: Sendable {
    package let executor: ScenarioExecutor
    package init(executor: ScenarioExecutor) { self.executor = executor }

    static let vectorClause = Clause("marmot-conform", "scenario vectors")
    static let determinismClause = Clause("marmot-conform", "determinism")

    /// Runs every scenario for every seed, reporting each finished run to `progress`.
    package func run(
        _ scenarios: [(Scenario, text: String)], request: RunRequest,
        progress: (ScenarioRun) -> Void
    ) async -> [ScenarioRun] {
        var runs: [ScenarioRun] = []
        var fingerprints = StoredFingerprints(
            url: request.vectorsDirectory.appendingPathComponent("fingerprints.json"), rewriting: request.updateVectors)
        for (scenario, text) in scenarios {
            var outcomesBySeed: [UInt64: Outcome] = [:]
            var scenarioRuns: [ScenarioRun] = []
            for seed in request.seeds {
                let reproduce =
                    "\(request.commandName) run \(request.reproducePath(scenario.file)) --engine \(Self.shellWord(request.selection.rawValue)) --seed \(seed)"
                    + (request.profile == .standard ? "" : " --profile \(request.profile.rawValue)")
                    + (executor.realNetwork.map { " " + $0.commandArguments } ?? "")
                var execution = await executor.execute(
                    scenario, seed: seed, selection: request.selection, reproduce: reproduce, profile: request.profile)
                if execution.run.notRun == nil {
                    if request.checkDeterminism {
                        // A pinned trace the run replayed proves what a second run would: no check twice.
                        let key = Self.fingerprintKey(scenario, selection: request.selection, seed: seed, profile: request.profile)
                        let pin = request.updateVectors || executor.schedule != nil ? nil : fingerprints.entries[key]
                        execution.run.checks.append(
                            await determinism(scenario, seed: seed, first: execution, pinned: pin, request: request))
                    }
                    if let outcome = execution.outcome.map(Self.vectorOutcome) {
                        // Only a run whose own checks all held may become the stored outcome: a
                        // known defect (an MDK run's lost message, say) must never be recorded.
                        if !execution.run.checks.contains(where: { $0.verdict.failsTheRun }) { outcomesBySeed[seed] = outcome }
                        // A stored vector is the seeded run's outcome; an explored schedule may end elsewhere.
                        if scenario.storesVector, executor.schedule == nil, executor.realNetwork == nil {
                            execution.run.checks.append(vectorCheck(scenario, outcome: outcome, request: request))
                        }
                    }
                    // Pins are of seeded runs; a run on a prescribed schedule (explore, replay) has none.
                    if let fingerprint = execution.run.fingerprint, executor.schedule == nil {
                        let key = Self.fingerprintKey(scenario, selection: request.selection, seed: seed, profile: request.profile)
                        if request.updateVectors {
                            fingerprints.entries[key] = fingerprint
                            // A file of another format version is not carried over: say so once.
                            if let dropped = fingerprints.takeReplacedNote() { execution.run.checks.append(dropped) }
                        } else {
                            execution.run.checks.append(fingerprints.check(key, fingerprint))
                        }
                    }
                    execution.run = judged(execution.run, of: scenario, request: request)
                    // A broken run is as worth replaying as a failing one (a driver that died mid-run).
                    if execution.run.verdict.failsTheRun {
                        switch writeCapsule(execution, text: text, request: request) {
                        case .success(let path): execution.run.capsule = path
                        case .failure(let error):
                            execution.run.checks.append(
                                CheckResult(
                                    check: "write failure capsule", clause: Self.vectorClause, verdict: .error, detail: error.description))
                        }
                    }
                }
                execution.run.clauses = scenario.clauses
                if execution.run.profile == nil { execution.run.profile = request.profile }
                scenarioRuns.append(execution.run)
                // Each run is reported as it finishes; under --update-vectors the scenario's last run
                // waits for the writes below, whose failure it carries.
                if !request.updateVectors || seed != request.seeds.last { progress(execution.run) }
            }
            // What --update-vectors could not write fails the scenario's last run: a vector or pin
            // that silently stayed as it was would pass the next run on stale bytes.
            if request.updateVectors, !scenarioRuns.isEmpty {
                var failures: [ScenarioError] = []
                do throws(ScenarioError) { try fingerprints.save() } catch { failures.append(error) }
                if scenario.storesVector, let first = request.seeds.first, let outcome = outcomesBySeed[first] {
                    do throws(ScenarioError) {
                        try VectorFormat.write(Data(VectorFormat.vectorText(outcome).utf8), to: vectorURL(scenario, request))
                    } catch {
                        failures.append(error)
                    }
                }
                for failure in failures {
                    scenarioRuns[scenarioRuns.count - 1].checks.append(
                        CheckResult(
                            check: "write vectors", clause: Self.vectorClause, verdict: .error, detail: failure.description))
                }
                progress(scenarioRuns[scenarioRuns.count - 1])
            }
            runs += scenarioRuns
        }
        return runs
    }

    /// The run judged by the request's spec profile, then by the known-defects ledger (a ledger
    /// entry names a check as the profile judged it).
    func judged(_ run: ScenarioRun, of scenario: Scenario, request: RunRequest) -> ScenarioRun {
        var run = run
        run.checks = ProfiledRule.tag(run.checks, of: scenario)
        run = request.profile.judge(run)
        return request.ledger.apply(to: run, engineVersion: request.engineVersions[request.selection.rawValue] ?? "", today: request.today)
    }

    /// A pinned fingerprint's key: `<vector> <selection> seed <n>`, and ` profile <p>` for runs
    /// under any profile but the standard one, so that legacy pins keep their keys and a current
    /// run never meets a legacy pin (its engines speak other bytes).
    package static func fingerprintKey(_ scenario: Scenario, selection: EngineSelection, seed: UInt64, profile: MarmotProfile) -> String {
        "\(scenario.vectorName) \(selection.rawValue) seed \(seed)" + (profile == .standard ? "" : " profile \(profile.rawValue)")
    }

    /// The scenarios that apply to `profile` (`profiles:`), and those that do not, which a run
    /// skips and reports as not applicable, never as passed.
    package static func applicable<Text>(_ scenarios: [(Scenario, text: Text)], to profile: MarmotProfile)
        -> (applying: [(Scenario, text: Text)], notApplicable: [NotApplicable])
    {
        var applying: [(Scenario, text: Text)] = []
        var skipped: [NotApplicable] = []
        for entry in scenarios {
            if entry.0.applies(to: ProfileName(profile)) {
                applying.append(entry)
            } else {
                skipped.append(
                    NotApplicable(file: entry.0.file, scenario: entry.0.name, profiles: entry.0.profiles.map(MarmotProfile.init)))
            }
        }
        return (applying, skipped)
    }

    /// A selection as one shell word (a `driver:` command has spaces): quoted when it needs it.
    static func shellWord(_ text: String) -> String {
        guard text.contains(where: { !($0.isLetter || $0.isNumber || "._-:,/+=".contains($0)) }) else { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The outcome as stored: the whole outcome, with the two parts that are not the same on
    /// every engine normalized to what is (docs/report-format.md, "Outcome vectors"):
    /// - rejections: only the reasons of our own layers (`core.…`, `role.…`, `pref.…`, Nostr and
    ///   NIP codes, all dotted) are stored. Those an engine chose (a driver-protocol code such as
    ///   `wrong_epoch`, or `unprocessable`, `previously_failed`) are left out: MDK 0.8.0 raises some
    ///   refusals as errors and reports others as unprocessable, and how many events an engine
    ///   refuses (own echoes, duplicates, commits of epochs before a join) differs per engine;
    /// - a group notification title `<sender> in <group name>` keeps its sender and form, with the
    ///   name written `{group}`: the title names the group as it was when the member processed the
    ///   message, and a member catching up processes history in the `created_at` order its peers'
    ///   engines stamped (whole seconds), so a rename can land before or after an
    ///   older message. The chat's current name is in the notification's `chat` field;
    /// - a notification's `badge`, `sound` and `type` are left out: the badge counts what was unread
    ///   when the intent was raised, so it follows the order in which messages of different senders
    ///   arrived, which differs per seed and engine; scenarios assert all three in `expect`, which
    ///   compares the unnormalized values on every engine;
    /// - every field `OutcomeSchema` marks expect-only is left out (a chat's `others`, `is-admin`,
    ///   `description` and `last-message`; the member's `chat-order`, `chat-events` and `open-chat`).
    static func vectorOutcome(_ outcome: Outcome) -> Outcome {
        guard case .map(let members) = outcome else { return outcome }
        return .map(
            members.mapValues { member in
                guard case .map(var fields) = member else { return member }
                for key in OutcomeSchema.Member.expectOnly { fields[key] = nil }
                // Each chat's and each channel's expect-only fields leave the entries of that list.
                for (list, expectOnly) in [("chats", OutcomeSchema.Chat.expectOnly), ("channels", OutcomeSchema.Channel.expectOnly)] {
                    guard case .list(let entries) = fields[list] else { continue }
                    fields[list] = .list(
                        entries.map { item in
                            guard case .map(var entry) = item else { return item }
                            for key in expectOnly { entry[key] = nil }
                            return .map(entry)
                        })
                }
                if case .list(let reasons) = fields["rejections"] {
                    fields["rejections"] = .list(
                        reasons.filter { reason in
                            guard case .string(let text) = reason else { return true }
                            return text.contains(".")
                        }.sorted { $0.summary < $1.summary })
                }
                if case .list(let intents) = fields["notifications"] {
                    fields["notifications"] = .list(
                        intents.map { intent in
                            guard case .map(var entry) = intent else { return intent }
                            for key in OutcomeSchema.Notification.expectOnly { entry[key] = nil }
                            guard entry["group"] == .bool(true), case .string(let title)? = entry["title"],
                                let separator = title.range(of: " in ")
                            else { return .map(entry) }
                            entry["title"] = .string(title[..<separator.upperBound] + "{group}")
                            return .map(entry)
                        }.sorted { $0.summary < $1.summary })
                }
                return .map(fields)
            })
    }

    func vectorURL(_ scenario: Scenario, _ request: RunRequest) -> URL {
        request.vectorsDirectory.appendingPathComponent(scenario.vectorName + ".json")
    }

    /// The stored engine-independent outcome must equal what this run produced.
    func vectorCheck(_ scenario: Scenario, outcome: Outcome, request: RunRequest) -> CheckResult {
        let url = vectorURL(scenario, request)
        let name = "stored vector \(url.lastPathComponent)"
        guard !request.updateVectors else {
            return CheckResult(check: name, clause: Self.vectorClause, verdict: .pass, detail: "rewritten (--update-vectors)")
        }
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            return CheckResult(
                check: name, clause: Self.vectorClause, verdict: .fail,
                detail: "no stored vector at \(url.path): review the outcome and run with --update-vectors")
        }
        let stored: Outcome
        do throws(ScenarioError) {
            stored = try VectorFormat.readVector(text, file: url.path)
        } catch  where error.code == .formatVersion {
            return CheckResult(check: name, clause: Self.vectorClause, verdict: .error, detail: error.description)
        } catch {
            return CheckResult(check: name, clause: Self.vectorClause, verdict: .fail, detail: error.description)
        }
        let differences = stored.differences(from: outcome)
        return CheckResult(
            check: name, clause: Self.vectorClause, verdict: differences.isEmpty ? .pass : .fail,
            detail: differences.isEmpty
                ? "" : "differs from the stored outcome:\n  " + differences.map(\.description).joined(separator: "\n  "))
    }

    /// The same seed must leave the same trace fingerprint. Where a fingerprint is pinned and this
    /// run left exactly it, the pin (an earlier run's trace) proves that with one run; otherwise
    /// (nothing pinned, or the run left another trace) a second run decides, so a changed pin still
    /// tells "not deterministic" from "behaves differently now". The detail says which was done.
    func determinism(_ scenario: Scenario, seed: UInt64, first: Execution, pinned: String? = nil, request: RunRequest) async -> CheckResult
    {
        let name = "same seed, same trace"
        guard let fingerprint = first.run.fingerprint else {
            return CheckResult(
                check: name, clause: Self.determinismClause, verdict: .info,
                detail: "not checked: an engine in this run draws its own randomness (e.g. MDK)")
        }
        if let pinned, pinned == fingerprint {
            return CheckResult(
                check: name, clause: Self.determinismClause, verdict: .pass, expected: pinned, observed: fingerprint,
                detail: "by the pin: the run replayed the pinned trace, so no second run was needed")
        }
        let second = await executor.execute(
            scenario, seed: seed, selection: request.selection, reproduce: first.run.reproduce, profile: request.profile)
        let same = second.run.fingerprint == fingerprint
        return CheckResult(
            check: name, clause: Self.determinismClause, verdict: same ? .pass : .fail,
            expected: fingerprint, observed: second.run.fingerprint ?? "none",
            detail: same ? "by a second run (\(pinned == nil ? "nothing pinned" : "the pin differs")): the same trace" : "")
    }

    /// Writes the failure capsule; what could not be written is the error.
    func writeCapsule(_ execution: Execution, text: String, request: RunRequest) -> Result<String, ScenarioError> {
        let capsule = FailureCapsule(
            scenarioFile: execution.run.file, scenarioText: text, engine: execution.run.engine,
            engineVersions: request.engineVersions, seed: execution.run.seed, stepLog: execution.stepLog,
            trace: execution.trace, steps: execution.steps, fingerprint: execution.run.fingerprint,
            failures: execution.run.checks.filter { $0.verdict.failsTheRun }, reproduce: execution.run.reproduce,
            schedule: executor.schedule)
        let encoded: (Data, String)
        do {
            encoded = try capsule.encoded()
        } catch {
            return .failure(
                ScenarioError(
                    .unwritableFile, at: SourceLocation(file: request.capsuleDirectory.path, line: 1, column: 1),
                    "capsule not encodable: \(error)"))
        }
        let url = request.capsuleDirectory.appendingPathComponent(encoded.1)
        do throws(ScenarioError) {
            try VectorFormat.write(encoded.0, to: url)
        } catch {
            return .failure(error)
        }
        return .success(url.path)
    }
}

/// A scenario a run skipped because it does not apply to the run's profile (`profiles:`).
package struct NotApplicable: Hashable, Sendable, Codable {
    package let file: String
    package let scenario: String
    /// The profiles the scenario applies to.
    package let profiles: [MarmotProfile]

    package init(file: String, scenario: String, profiles: [MarmotProfile]) {
        self.file = file
        self.scenario = scenario
        self.profiles = profiles
    }

    /// `scenarios/x.yaml: not applicable to profile current (applies to legacy)`.
    package func line(under profile: MarmotProfile) -> String {
        "\(file): not applicable to profile \(profile) (applies to \(profiles.map(\.rawValue).joined(separator: ", ")))"
    }
}

extension ProfileName {
    /// The model's name of a profile.
    init(_ profile: MarmotProfile) {
        switch profile {
        case .legacy: self = .legacy
        case .current: self = .current
        }
    }
}

extension Scenario {
    /// The vector file's name: the scenario file's path under `scenarios/`, folders joined by `-`.
    package var vectorName: String {
        var path = file
        if let range = path.range(of: "scenarios/") { path = String(path[range.upperBound...]) }
        if path.hasSuffix(".yaml") { path.removeLast(5) } else if path.hasSuffix(".yml") { path.removeLast(4) }
        return path.replacingOccurrences(of: "/", with: "-")
    }
}

/// Trace fingerprints of deterministic runs (our own engine, fixed seed), pinned so that any change
/// in what a replayed run does is deliberate: `vectors/scenarios/fingerprints.json`.
struct StoredFingerprints {
    let url: URL
    var entries: [String: String]

    /// Why a file that exists could not be read (then every check against it is an `error`).
    var loadFailure: String?
    /// Under --update-vectors, a file of another format version is rewritten from scratch: the
    /// reason, reported once (`takeReplacedNote`).
    private var replacedNote: String?

    init(url: URL, rewriting: Bool = false) {
        self.url = url
        entries = [:]
        // No file: nothing pinned yet. A file that cannot be read or decoded must not pass as "none pinned".
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            entries = try VectorFormat.readFingerprints(Data(contentsOf: url), file: url.path)
        } catch let error as ScenarioError where error.code == .formatVersion && rewriting {
            // Its pins are of traces in another vocabulary: none is carried over.
            replacedNote = "\(error.description); rewritten in format-version \(VectorFormat.version) without its entries"
        } catch let error as ScenarioError {
            loadFailure = error.description
        } catch {
            loadFailure = "\(url.path) could not be read: \(error)"
        }
    }

    /// The note that the file was of another format version and is being rewritten, once.
    mutating func takeReplacedNote() -> CheckResult? {
        guard let note = replacedNote else { return nil }
        replacedNote = nil
        return CheckResult(check: "stored trace fingerprints", clause: ConformanceRunner.determinismClause, verdict: .info, detail: note)
    }

    func check(_ key: String, _ fingerprint: String) -> CheckResult {
        let name = "stored trace fingerprint"
        if let loadFailure {
            return CheckResult(check: name, clause: ConformanceRunner.determinismClause, verdict: .error, detail: loadFailure)
        }
        guard let stored = entries[key] else {
            return CheckResult(
                check: name, clause: ConformanceRunner.determinismClause, verdict: .info,
                detail: "none stored for \(key) (run with --update-vectors to pin it)")
        }
        return CheckResult(
            check: name, clause: ConformanceRunner.determinismClause, verdict: stored == fingerprint ? .pass : .fail,
            expected: stored, observed: fingerprint,
            detail: stored == fingerprint ? "" : "the run no longer replays the pinned trace for \(key)")
    }

    /// Writes the entries in this build's format; a failure is the caller's to report.
    func save() throws(ScenarioError) {
        try VectorFormat.write(VectorFormat.fingerprintsData(entries), to: url)
    }
}
