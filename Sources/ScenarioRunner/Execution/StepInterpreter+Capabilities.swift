// Before step one: does every member's engine offer what the steps it performs need? A step's
// requirement comes from its verb's table entry (ScenarioModel's StepVocabulary).
import EngineInterface
import Nostr
import ScenarioModel

extension StepInterpreter {
    /// Why the scenario cannot run on these engines, found before step one.
    enum Unrunnable {
        /// An engine declares it lacks a capability a step needs: `unsupported`.
        case lacking(String)
        /// An engine could not say what it supports: `error`.
        case unanswered(String)
        /// An engine lacks what the profile under certification requires of every engine
        /// (`MarmotProfile.requiredCapabilities`): `fail`, never a skip, with the missing names.
        case uncertifiable(String, missing: [String])
    }

    /// The first capability some member's engine lacks for a step it performs (checked before step one).
    func missingCapability() async -> Unrunnable? {
        var needed: [String: Set<String>] = [:]
        func collect(_ steps: [Step]) {
            for step in steps {
                collect(step.substeps)
                if case .crash(let members, let point, _, let damage) = step.action {
                    for member in members {
                        if point.insideEngine { needed[member, default: []].insert(EngineCapability.crashPoints.rawValue) }
                        if damage != nil { needed[member, default: []].insert(EngineCapability.storeDamage.rawValue) }
                    }
                }
                for member in keyPackagePublishers(step.action) {
                    needed[member, default: []].insert(EngineCapability.keyPackage.rawValue)
                }
                guard case .engine(let feature) = step.requirement, let by = step.performer else { continue }
                needed[by, default: []].insert(EngineCapability(feature).rawValue)
            }
        }
        collect(scenario.steps)
        for (label, capabilities) in needed.sorted(by: { $0.key < $1.key }) {
            guard let engine = world.member(label)?.engine else { continue }
            let offered: EngineCapabilities
            do { offered = try await engine.capabilities() } catch {
                return .unanswered("\(label)'s engine did not report its capabilities: \(error)")
            }
            if let missing = capabilities.sorted().first(where: { !offered.supports(EngineCapability(rawValue: $0)) }) {
                return .lacking("\(label)'s engine \(offered.name) \(offered.version) lacks capability \(missing)")
            }
        }
        return nil
    }
}

extension StepInterpreter {
    /// The members a step relies on to publish kind-30443 key packages: the author of an `inject`
    /// copy of kind 30443, and every member for a `fault` on kind-30443 frames (the frame's publisher
    /// is whichever invitee the flow fetches). An engine that publishes kind 443 only (MDK 0.7.0,
    /// which predates 30443) declares no `key_package.30443`, so such a step is `unsupported` on it
    /// rather than a step with nothing to select.
    func keyPackagePublishers(_ action: StepAction) -> [String] {
        let addressable = Kind.keyPackage.rawValue
        switch action {
        case .inject(let inject):
            guard let copy = inject.copy, copy.kind == addressable, let author = copy.author else { return [] }
            return [author]
        case .fault(let fault):
            return fault.eventKind == addressable ? world.labels : []
        default:
            return []
        }
    }
}

extension StepInterpreter {
    /// The first member whose engine cannot take part under its profile. A member of the run's own
    /// profile (the one under certification) must have everything that profile requires: lacking any
    /// of it fails the run, listing all it lacks, so an engine that declares nothing fails
    /// certification instead of "passing" as all-skipped. A member given another profile by the
    /// scenario (`profile:`, the cross-profile families) needs only to speak it (`profile.legacy`,
    /// `profile.current`; an engine that declares neither speaks legacy only, as drivers written
    /// before profiles did); one that does not is `unsupported`.
    func unspokenProfile(_ profiles: [String: MarmotProfile], run: MarmotProfile) async -> Unrunnable? {
        for (label, profile) in profiles.sorted(by: { $0.key < $1.key }) {
            guard let engine = world.member(label)?.engine else { continue }
            let offered: EngineCapabilities
            do { offered = try await engine.capabilities() } catch {
                return .unanswered("\(label)'s engine did not report its capabilities: \(error)")
            }
            if profile == run {
                let missing = offered.missingRequirements(of: profile).map(\.rawValue)
                if !missing.isEmpty {
                    return .uncertifiable(
                        "\(label)'s engine \(offered.name) \(offered.version) lacks what the \(profile) profile requires of every "
                            + "engine: \(missing.joined(separator: ", ")) (docs/profiles.md, \"Required capabilities\")",
                        missing: missing)
                }
            } else if !offered.profiles.contains(profile) {
                return .lacking(
                    "\(label)'s engine \(offered.name) \(offered.version) does not speak the \(profile) profile "
                        + "(lacks capability \(profile.capability.rawValue))")
            }
        }
        return nil
    }
}

extension MarmotProfile {
    /// The profile a scenario file names (the model's own enum, same raw values).
    init(_ name: ProfileName) {
        switch name {
        case .legacy: self = .legacy
        case .current: self = .current
        }
    }
}

extension EngineCapability {
    /// The engine capability a scenario step needs (the model names it by the same raw value).
    init(_ feature: EngineFeature) { self.init(rawValue: feature.rawValue) }
}
