// The `attack` step: the hostile member's engine (through EngineInterface's HostileEngine, never
// a concrete engine) builds the attack; its kind-445 events are published to the step's relay
// from a connection of their own, and its welcome rumors gift-wrapped by the attacker to the
// target's inbox relay, as a modified client would send them.
import EngineInterface
import Nostr
import ScenarioModel
import Simulation

extension StepInterpreter {
    mutating func attack(_ step: AttackStep, title: String) async throws -> [CheckResult] {
        guard let member = world.member(step.by) else { throw StepFailure(message: "no member '\(step.by)'") }
        let engine = (member.engine as? MonitoredEngine)?.base ?? member.engine
        guard let hostile = engine as? any HostileEngine, let attack = HostileAttack(rawValue: step.attack.rawValue) else {
            throw StepFailure(message: "\(step.by)'s engine cannot build attacks")
        }
        let target = try step.target.map { try key($0) }
        // The target's newest key package: kind 30443, or kind 443 from an engine that publishes
        // nothing newer (MDK 0.7.0).
        let keyPackage = step.target.flatMap {
            world.publishedEvents(kind: .keyPackage, by: $0).last ?? world.publishedEvents(kind: .keyPackageLegacy, by: $0).last
        }
        let request = ForgeRequest(
            attack: attack, nostrGroupID: try await chat(of: step.by, named: step.group), target: target,
            targetKeyPackage: keyPackage, sender: member.publicKey)
        let traffic: ForgedTraffic
        do { traffic = try await hostile.forge(request) } catch {
            throw StepFailure(message: "attack \(attack.rawValue): \(step.by)'s engine could not build it: \(error)")
        }
        for event in traffic.events { log.append("  " + world.inject(event, relay: step.relay, to: nil)) }
        for rumor in traffic.welcomeRumors {
            guard let target else { throw StepFailure(message: "attack \(attack.rawValue) made a welcome but names no target") }
            log.append("  " + world.inject(try world.giftWrap(rumor, from: step.by, to: target), relay: "inbox", to: nil))
        }
        guard attack == .backdatedCommit else { return [] }
        // MIP-03 as MDK 0.8.0 applies it lets a commit dated earlier replace the applied one; the
        // adopted spec no longer lets timestamps choose group state. Shown, not judged.
        return [
            CheckResult(
                check: "\(title): a backdated commit replaces the last applied commit",
                clause: Clause("MIP-03", "Commit Message Race Conditions"),
                verdict: .info, detail: "\(step.by) undid the last commit with a self-update dated one second before it",
                rule: .commitRaceByTimestamp)
        ]
    }
}
