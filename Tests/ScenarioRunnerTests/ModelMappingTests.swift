// The scenario model names roles, merge behaviours, partial-failure policies, engine capabilities
// and the standard relays with its own values (it imports neither GroupCore nor Simulation nor
// EngineInterface); the runner maps them. These tests fail when one side gains a value the other
// lacks, or when a mapping sends a value to the wrong counterpart.
import EngineInterface
import GroupCore
import InMemoryRelay
import Simulation
import Testing

@testable import ScenarioModel
@testable import ScenarioRunner

@Suite struct ModelMappingTests {
    @Test func roleNamesAreGroupCoreRoles() {
        #expect(RoleName.allCases.map(\.rawValue) == Role.allCases.map(\.rawValue))
        for name in RoleName.allCases { #expect(Role(name).rawValue == name.rawValue) }
    }

    @Test func ownCommitMergesAreGroupCores() {
        let core = CoreConfiguration.Behaviour.OwnCommitMerge.allCases.map(\.rawValue)
        #expect(OwnCommitMergeName.allCases.map(\.rawValue) == core)
        for name in OwnCommitMergeName.allCases { #expect(CoreConfiguration.Behaviour.OwnCommitMerge(name).rawValue == name.rawValue) }
    }

    @Test func updateDeliveriesAreTheWorldsPerturbations() {
        #expect(UpdateDeliveryName.allCases.map(\.rawValue) == UpdatePerturbation.allCases.map(\.rawValue))
        for name in UpdateDeliveryName.allCases { #expect(UpdatePerturbation(name).rawValue == name.rawValue) }
    }

    @Test func partialFailureChoicesMapToPolicies() {
        #expect(PartialFailurePolicy(PartialFailureChoice.proceed) == .proceed)
        #expect(PartialFailurePolicy(PartialFailureChoice.abort) == .abort)
    }

    @Test func engineFeaturesAreEngineCapabilities() {
        let declared: [EngineCapability] = [
            .createGroup, .addMembers, .removeMembers, .leave, .updateGroupData, .groupImage, .selfUpdate, .disbandGroup,
            .applicationMessages, .declineWelcome, .hostile,
        ]
        #expect(EngineFeature.allCases.map { EngineCapability($0) } == declared)
    }

    @Test func invitationAnswersAreGroupCores() {
        #expect(InvitationAnswerName.allCases.map(\.rawValue) == InvitationAcceptance.allCases.map(\.rawValue))
    }

    @Test func profileNamesAreMarmotProfiles() {
        #expect(ProfileName.allCases.map(\.rawValue) == MarmotProfile.allCases.map(\.rawValue))
        for name in ProfileName.allCases { #expect(MarmotProfile(name).rawValue == name.rawValue) }
    }

    @Test func attackNamesAreHostileAttacks() {
        #expect(AttackName.allCases.map(\.rawValue) == HostileAttack.allCases.map(\.rawValue))
    }

    /// `max-event-bytes` becomes the relay's event limit, and its frame limit grows to carry such
    /// events; without it the relay keeps the defaults (64 KiB events).
    @Test func aDeclaredEventLimitIsTheRelaysPolicy() {
        let declared = ScenarioExecutor.policy([], maximumEventBytes: 131_072)
        #expect(declared.maximumEventBytes == 131_072)
        #expect(declared.maximumFrameBytes >= 131_072 + RelayPolicy.eventFrameOverheadBytes)
        let plain = ScenarioExecutor.policy([])
        #expect(plain.maximumEventBytes == RelayPolicy().maximumEventBytes && plain.maximumEventBytes == 65_536)
        #expect(plain.maximumFrameBytes == RelayPolicy().maximumFrameBytes)
    }

    @Test func chatRelayConductsAreGroupCores() {
        #expect(ChatRelayConductName.allCases.map(\.rawValue) == ChatRelayConduct.allCases.map(\.rawValue))
        for name in ChatRelayConductName.allCases { #expect(ChatRelayConduct(name).rawValue == name.rawValue) }
    }

    /// A relay's first role is the world relay's; discovery (and no role) serves every kind.
    @Test func relayRolesMapToTheWorldsRoles() {
        #expect(ScenarioExecutor.role(.keyPackages) == .keyPackage)
        #expect(ScenarioExecutor.role(.inbox) == .inbox)
        #expect(ScenarioExecutor.role(.group) == .group)
        #expect(ScenarioExecutor.role(.discovery) == .general && ScenarioExecutor.role(nil) == .general)
    }

    /// Each policy name sets its own rule and no other (`down` is the relay's starting state).
    @Test func relayPoliciesSetTheirRule() {
        let plain = RelayPolicy()
        #expect(!ScenarioExecutor.policy([.rejectProtected]).acceptsProtectedEvents && plain.acceptsProtectedEvents)
        #expect(ScenarioExecutor.policy([.requireAuth]).giftWrapsRequireAuth && !plain.giftWrapsRequireAuth)
        #expect(!ScenarioExecutor.policy([.keepsExpired]).honoursExpiration && plain.honoursExpiration)
        #expect(!ScenarioExecutor.policy([.hung]).answers && plain.answers)
        let down = ScenarioExecutor.policy([.down])
        #expect(down.acceptsProtectedEvents && !down.giftWrapsRequireAuth && down.honoursExpiration && down.answers)
    }

    /// The built-in engines a member may pin are the engines `mixed` alternates over, and each
    /// names the selection of that engine.
    @Test func builtInEnginesAreTheSelectionsEngines() {
        #expect(EngineSelection.mixed.engines == [.swift, .mdk])
        #expect(EngineName.allCases.map { EngineSelection(engine: $0.rawValue) } == [.swift, .mdk])
        #expect(EngineName.allCases.map { EngineSelection(rawValue: $0.rawValue) } == [.swift, .mdk])
    }

    @Test func standardRelayNamesAreTheWorldsStandardRelays() {
        #expect(Scenario.standardRelayNames == WorldConfiguration.standardRelays.map(\.name))
    }
}
