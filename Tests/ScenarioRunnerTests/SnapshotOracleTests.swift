import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import NativeSwiftEngine
import Simulation
import Testing

@testable import ScenarioRunner

/// The twins of `converged`'s protocol-snapshot layer (foundation/conformance.md): a member whose
/// snapshot differs from the others' in one shared field, every field in turn, fails the oracle
/// with that field named; per-member fields are not compared; a field one member cannot give is
/// reported as not compared, never passed over in silence.
@Suite struct SnapshotOracleTests {
    typealias Field = ProtocolSnapshot.FieldName

    /// alice creates a group with bob and carol on our engine; bob's snapshots go through `tamper`.
    static func world(seed: UInt64, tamper: @escaping @Sendable (ProtocolSnapshot) -> ProtocolSnapshot) async throws -> World {
        let world = World(
            configuration: WorldConfiguration(seed: seed, epochUnixSeconds: 1_700_000_000),
            makeEngine: { context in
                let base = NativeSwiftEngine(generator: context.generator, clock: context.clock)
                return context.label == "bob" ? SnapshotTamperingEngine(base: base, tamper: tamper) : base
            })
        for label in ["alice", "bob", "carol"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        let peers = try ["bob", "carol"].map { try #require(world.member($0)?.publicKey) }
        await world.dispatch("alice", .createGroup(peers: peers, name: "Team", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        return world
    }

    /// `snapshot` with one shared field changed to a value no honest member could hold beside the others'.
    static func changed(_ snapshot: ProtocolSnapshot, _ field: Field) -> ProtocolSnapshot {
        func flipped(_ hex: String) -> String { String(hex.dropLast()) + (hex.last == "0" ? "1" : "0") }
        var copy = SnapshotCopy(snapshot)
        switch field {
        case .groupID: copy.groupID = .value(flipped(snapshot.groupID.value ?? "00"))
        case .epoch: copy.epoch = .value((snapshot.epoch.value ?? 0) + 1)
        case .groupContextHash: copy.groupContextHash = .value(flipped(snapshot.groupContextHash.value ?? "00"))
        case .exporterCommitment: copy.exporterCommitment = .value(flipped(snapshot.exporterCommitment.value ?? "00"))
        case .leaves:
            var leaves = snapshot.leaves.value ?? []
            if let last = leaves.popLast() {
                leaves.append(
                    SnapshotLeaf(
                        index: last.index, identity: last.identity, signatureKey: flipped(last.signatureKey),
                        capabilities: last.capabilities))
            }
            copy.leaves = .value(leaves)
        case .requiredCapabilities:
            let required = snapshot.requiredCapabilities.value
            copy.requiredCapabilities = .value(
                SnapshotRequiredCapabilities(
                    extensionTypes: required?.extensionTypes ?? [], proposalTypes: (required?.proposalTypes ?? []) + [0x0A0A],
                    credentialTypes: required?.credentialTypes ?? []))
        case .dictionary:
            var entries = snapshot.dictionary.value ?? []
            if let first = entries.first {
                entries[0] = SnapshotDictionaryEntry(component: first.component, data: first.data.dropLast() + [(first.data.last ?? 0) ^ 1])
            }
            copy.dictionary = .value(entries)
        case .lifecycle: copy.lifecycle = .value("pending")
        case .convergence: copy.convergence = .value("resolving")
        case .localGates: copy.localGates = .value(["leaving"])
        case .publications:
            copy.publications = .value([
                SnapshotPublication(
                    eventID: String(repeating: "ab", count: 32), pendingEpoch: 9, attemptMayHaveOccurred: true, acknowledged: false)
            ])
        case .dispositions:
            copy.dispositions = .value([SnapshotDisposition(input: String(repeating: "cd", count: 32), disposition: "failed")])
        case .effects: copy.effects = .value(["message:" + String(repeating: "ef", count: 32)])
        }
        return copy.snapshot
    }

    @Test(arguments: Field.allCases.filter(\.isShared))
    func aSnapshotDifferingInOneSharedFieldFailsConvergedNamingIt(field: Field) async throws {
        let world = try await Self.world(seed: 0x5A_0001) { Self.changed($0, field) }
        let check = await Convergence.check("converged", in: world)
        #expect(check.verdict == .fail, "\(field.rawValue): \(check.observed ?? "")")
        let observed = check.observed ?? ""
        #expect(observed.contains("snapshot \(field.rawValue)"), "\(field.rawValue) not named: \(observed)")
        #expect(observed.contains("alice") && observed.contains("bob"), "both members named: \(observed)")
        // Only that field (the others are the same state's): no other snapshot path is named.
        for other in Field.allCases where other != field {
            #expect(!observed.contains("snapshot \(other.rawValue)"), "\(other.rawValue) named too: \(observed)")
        }
    }

    @Test func untamperedSnapshotsAgree() async throws {
        let world = try await Self.world(seed: 0x5A_0001) { $0 }
        let check = await Convergence.check("converged", in: world)
        #expect(check.verdict == .pass, "\(check.observed ?? "")")
        #expect(!check.detail.contains("snapshot"), "our engine gives every shared field: \(check.detail)")
    }

    /// A member's own fields (its lifecycle, gates, outbox, inputs, effects) may differ between
    /// members of a converged group.
    @Test(arguments: Field.allCases.filter { !$0.isShared })
    func aPerMemberFieldIsNotComparedAcrossMembers(field: Field) async throws {
        let world = try await Self.world(seed: 0x5A_0002) { Self.changed($0, field) }
        let check = await Convergence.check("converged", in: world)
        #expect(check.verdict == .pass, "\(field.rawValue): \(check.observed ?? "")")
    }

    /// A shared field one member does not give is named in the verdict's detail with the reason.
    @Test func anUnsupportedFieldIsReportedNotPassed() async throws {
        let world = try await Self.world(seed: 0x5A_0003) { snapshot in
            var copy = SnapshotCopy(snapshot)
            copy.exporterCommitment = .unsupported(reason: "twin: no exporter here")
            return copy.snapshot
        }
        let check = await Convergence.check("converged", in: world)
        let detail = check.detail
        #expect(detail.contains("snapshot fields not compared"), "\(detail)")
        #expect(detail.contains("bob: exporter_commitment (twin: no exporter here)"), "\(detail)")
        #expect(!detail.contains("alice: exporter_commitment"), "alice gives it: \(detail)")
    }
}

extension SnapshotOracleTests {
    /// In a mixed group the MDK members' snapshots (leaves read from MDK's serialized ratchet tree)
    /// equal our member's on every field MDK gives, and the fields it cannot give are named in the
    /// verdict's detail with mdk-python's reason.
    @Test(.enabled(if: PythonVenv.interpreter != nil, "no .venv with mdk-python: run ci/setup to enable MDK-backed twins"))
    func mdkMembersGiveLeavesEqualToOursAndNameWhatTheyCannotGive() async throws {
        let driver = try await ConvergenceTwinTests.launchDriver()
        let (world, _) = try await ConvergenceTwinTests.world(seed: 0x5A_0004, epoch: 1_700_000_000, trigger: ForkTrigger()) { context in
            if context.label == "alice" { return NativeSwiftEngine(generator: context.generator, clock: context.clock) }
            return try await ConvergenceTwinTests.mdkEngine(in: driver, for: context)
        }
        var snapshots: [String: ProtocolSnapshot] = [:]
        for label in ["alice", "bob", "carol"] {
            let engine = try #require(world.member(label)?.engine)
            #expect(try await engine.capabilities().supports(.protocolSnapshot))
            let group = try #require(try await engine.groups().first)
            snapshots[label] = try await engine.protocolSnapshot(of: group.mlsGroupID)
        }
        let ours = try #require(snapshots["alice"])
        let leaves = try #require(ours.leaves.value)
        #expect(leaves.count == 3)
        for label in ["bob", "carol"] {
            let theirs = try #require(snapshots[label])
            #expect(theirs.groupID == ours.groupID && theirs.epoch == ours.epoch)
            #expect(theirs.leaves == ours.leaves, "\(label): MDK's tree gives other leaves")
            for field in [theirs.groupContextHash, theirs.exporterCommitment] {
                guard case .unsupported = field else {
                    Issue.record("mdk-python 0.8.0 was thought to expose no GroupContext or exporter")
                    continue
                }
            }
        }
        let check = await Convergence.check("converged", in: world)
        #expect(check.verdict == .pass, "\(check.observed ?? "")")
        for field in ["group_context_hash", "exporter_commitment", "required_capabilities", "app_data_dictionary"] {
            #expect(check.detail.contains("bob: \(field) (mdk-python 0.8.0"), "\(field) not reported: \(check.detail)")
        }
        await driver.shutdown()
    }
}

extension SnapshotOracleTests {
    /// A member that does not give a field (an MDK member first in label order) does not shield the
    /// others: the two that give it are compared with each other.
    @Test func membersThatGiveAFieldAreComparedPastOneThatDoesNot() {
        let leaf = SnapshotLeaf(
            index: 0, identity: "aa", signatureKey: "bb",
            capabilities: SnapshotCapabilities(
                versions: [1], cipherSuites: [1], extensions: [], proposals: [], credentials: [1], components: nil))
        func snapshot(exporter: SnapshotField<String>) -> ProtocolSnapshot {
            ProtocolSnapshot(
                groupID: .value("00"), epoch: .value(1), groupContextHash: .unsupported(reason: "none"), exporterCommitment: exporter,
                leaves: .value([leaf]), requiredCapabilities: .unsupported(reason: "none"), dictionary: .unsupported(reason: "none"),
                lifecycle: .value("active"), convergence: .unsupported(reason: "none"), localGates: .value([]), publications: .value([]),
                dispositions: .value([]), effects: .value([]))
        }
        let (differences, notCompared) = SnapshotComparison.compare([
            ("alice", snapshot(exporter: .unsupported(reason: "no exporter"))), ("bob", snapshot(exporter: .value("01"))),
            ("carol", snapshot(exporter: .value("02"))),
        ])
        #expect(differences == [#"snapshot exporter_commitment: bob "01", carol "02""#])
        #expect(notCompared.filter { $0.contains("exporter_commitment") } == ["alice: exporter_commitment (no exporter)"])
    }
}

/// A mutable copy of a snapshot's fields (the type itself is immutable).
struct SnapshotCopy {
    var groupID, groupContextHash, exporterCommitment: SnapshotField<String>
    var epoch: SnapshotField<UInt64>
    var leaves: SnapshotField<[SnapshotLeaf]>
    var requiredCapabilities: SnapshotField<SnapshotRequiredCapabilities>
    var dictionary: SnapshotField<[SnapshotDictionaryEntry]>
    var lifecycle, convergence: SnapshotField<String>
    var localGates, effects: SnapshotField<[String]>
    var publications: SnapshotField<[SnapshotPublication]>
    var dispositions: SnapshotField<[SnapshotDisposition]>

    init(_ s: ProtocolSnapshot) {
        (groupID, groupContextHash, exporterCommitment, epoch) = (s.groupID, s.groupContextHash, s.exporterCommitment, s.epoch)
        (leaves, requiredCapabilities, dictionary) = (s.leaves, s.requiredCapabilities, s.dictionary)
        (lifecycle, convergence, localGates, effects) = (s.lifecycle, s.convergence, s.localGates, s.effects)
        (publications, dispositions) = (s.publications, s.dispositions)
    }

    var snapshot: ProtocolSnapshot {
        ProtocolSnapshot(
            groupID: groupID, epoch: epoch, groupContextHash: groupContextHash, exporterCommitment: exporterCommitment, leaves: leaves,
            requiredCapabilities: requiredCapabilities, dictionary: dictionary, lifecycle: lifecycle, convergence: convergence,
            localGates: localGates, publications: publications, dispositions: dispositions, effects: effects)
    }
}

/// Our engine, except that its snapshots pass through `tamper` (the oracle's twin: nothing else changes).
struct SnapshotTamperingEngine: ForwardingEngine {
    let base: any ProtocolEngine
    let tamper: @Sendable (ProtocolSnapshot) -> ProtocolSnapshot
    func protocolSnapshot(of group: MLSGroupID) async throws(EngineError) -> ProtocolSnapshot {
        tamper(try await base.protocolSnapshot(of: group))
    }
}
