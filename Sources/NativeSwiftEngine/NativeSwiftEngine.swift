import EngineInterface
import ErrorCodes
import MLS
import Marmot
import Nostr

/// The marmot-conform Marmot engine: MIP-00…03 on our own MLS, one instance per simulated member.
///
/// Deterministic by construction: every random byte comes from the generator given at creation and
/// every timestamp from the injected clock, so the same seed and clock give byte-identical events.
package actor NativeSwiftEngine: ProtocolEngine {
    /// The `client` tag of our key packages and welcomes.
    package static let clientTag = "marmot-conform/0.1"
    /// OpenMLS's default KeyPackage lifetime, which MDK uses: one hour back, 84 days ahead.
    static let keyPackageBackdate: UInt64 = 3_600
    static let keyPackageLifetime: UInt64 = 84 * 86_400

    var random: RandomSource
    let clock: @Sendable () -> UInt64
    /// The Marmot dialect this instance speaks (docs/native-engine.md, "Current profile"): every
    /// group, key package and Welcome it makes or accepts is of this profile; the other profile's
    /// are refused with `profile_mismatch`.
    package let profile: MarmotProfile
    /// Our key packages' private parts by KeyPackageRef: last-resort ones are never deleted; a
    /// one-time one goes with the first Welcome that uses it.
    var keyPackages: [[UInt8]: KeyPackagePrivate] = [:]
    /// The refs of one-time key packages a Welcome used, so that a second Welcome for one is
    /// refused with that reason (memory only: after a restart it is refused as for none of ours).
    var retiredKeyPackages: Set<[UInt8]> = []
    var groups: [MLSGroupID: GroupRecord] = [:]
    var welcomes: [EventID: StoredWelcome] = [:]
    /// The welcome rumor each group was joined by (the hostile member replays them).
    var joinedWelcomes: [MLSGroupID: UnsignedEvent] = [:]
    /// The last commit event each group applied from a peer, and the welcome rumors we sent each
    /// invitee, by group: what a hostile member republishes (NativeSwiftEngine+Replays.swift).
    /// Memory only, not in the state file.
    var observedCommits: [MLSGroupID: Event] = [:]
    var sentWelcomes: [MLSGroupID: [PublicKey: UnsignedEvent]] = [:]
    /// Current profile: the account keys that sign our leaves' identity proofs (``holdAccountKey(_:)``).
    var accountKeys: [PublicKey: Keypair] = [:]
    /// Current profile: the 0x8002 state of each image this engine prepared, by image_hash, until a
    /// commit names it (NativeSwiftEngine+GroupImage.swift). Not in the state file: an app that
    /// restarts between preparing and committing prepares again.
    var preparedImages: [[UInt8]: GroupBlossomImage.Image] = [:]
    /// Groups whose record in the state file did not load (issue 30, N6): every operation on one
    /// answers `group_unrecoverable`; the bytes are written back unchanged.
    var unrecoverableGroups: [MLSGroupID: UnrecoverableGroup] = [:]
    /// Whether the operation running now switched a group to another branch (boundary 7: the
    /// `branch-switch-unsaved` crash point); reset as each operation starts. Memory only.
    var switchedBranch = false

    /// Where the state is kept across restarts (NativeSwiftEngine+StateFile.swift); nil: memory only.
    let stateFile: String?
    /// The bytes last written to (or loaded from) `stateFile`: an operation that leaves them
    /// unchanged writes nothing.
    var lastWritten: [UInt8]?
    /// How many times the state file was written, so tests can see that unchanged states are not.
    package internal(set) var writeCount = 0
    /// The member's crash switch (restart matrix): the engine-internal crash points are reached
    /// through it (NativeSwiftEngine+StateFile.swift). nil: never.
    var crashSwitch: CrashSwitch?
    /// How many wrapper ids per group `processed` and `failed` each keep: `GroupRecord.retainedEventIDs`,
    /// or less under the conformance knob (scenario `retained-event-ids`), never more.
    let retainedEventIDs: Int

    /// An engine that keeps its state in memory only.
    /// - Parameters:
    ///   - generator: the only source of randomness (seed it for reproducible runs).
    ///   - clock: Unix seconds; key-package lifetimes and the kind-445 time window are relative to it.
    ///   - profile: the dialect this instance speaks; legacy (MDK 0.8.0's) unless told.
    ///   - accountKeys: current profile: the keys of the accounts whose leaves this engine makes
    ///     (each leaf carries the account's identity proof, 0x8009); see ``holdAccountKey(_:)``.
    package init(
        generator: some RandomNumberGenerator & Sendable, clock: @escaping @Sendable () -> UInt64,
        profile: MarmotProfile = .legacy, accountKeys: [Keypair] = [], retainedEventIDs: Int? = nil
    ) {
        self.retainedEventIDs = min(retainedEventIDs ?? GroupRecord.retainedEventIDs, GroupRecord.retainedEventIDs)
        random = RandomSource(base: generator)
        self.clock = clock
        self.profile = profile
        stateFile = nil
        for key in accountKeys { self.accountKeys[key.publicKey] = key }
    }

    /// An engine whose state survives restarts in `stateFile` (docs/engine-state-format.md): if the
    /// file exists, everything it holds is loaded from it; after every operation that changes the
    /// state, the whole state is written back atomically. The generator is not part of the state: a
    /// restarted engine must be given a fresh stream, or it would draw again the random bytes its
    /// earlier life already used.
    /// - Parameters:
    ///   - stateFile: the file's path; nil behaves exactly as the two-argument init.
    ///   - crashSwitch: the member's crash switch (restart matrix), nil outside it.
    ///   - retainedEventIDs: conformance knob (issue 30, N10): fewer wrapper ids per group than
    ///     `GroupRecord.retainedEventIDs`, so that a scenario can flood past the cap in little time.
    ///   - profile: the dialect this instance speaks; a state file of the current profile (version
    ///     2) restores the current profile and its account keys whatever this says.
    /// - Throws: `.invalidStateFile` for a file this build cannot load (naming what is wrong),
    ///   `.storage` for one it cannot read.
    package init(
        generator: some RandomNumberGenerator & Sendable, clock: @escaping @Sendable () -> UInt64, stateFile: String?,
        profile: MarmotProfile = .legacy, accountKeys: [Keypair] = [], crashSwitch: CrashSwitch? = nil,
        retainedEventIDs: Int? = nil
    ) throws(EngineError) {
        self.retainedEventIDs = min(retainedEventIDs ?? GroupRecord.retainedEventIDs, GroupRecord.retainedEventIDs)
        random = RandomSource(base: generator)
        self.clock = clock
        self.stateFile = stateFile
        self.crashSwitch = crashSwitch
        for key in accountKeys { self.accountKeys[key.publicKey] = key }
        // Boundary 8: a crash that was to damage the store does it now, before the store is read.
        if let stateFile, let damage = crashSwitch?.takeDamage() { try Self.damage(damage, stateFile: stateFile) }
        guard let stateFile, let loaded = try Self.loadState(from: stateFile) else {
            self.profile = profile
            return
        }
        // A current-profile file (version 2) comes back current whatever the caller said: its
        // groups are current-profile groups and would be misread as legacy ones. A version-1 file
        // keeps the profile the caller gives (files written before profiles existed carry none).
        let restored = loaded.state.profile == .current ? MarmotProfile.current : profile
        self.profile = restored
        for (key, keypair) in loaded.state.accountKeys { self.accountKeys[key] = keypair }
        keyPackages = loaded.state.keyPackages
        groups = loaded.state.groups.mapValues { record in
            var record = record
            record.profile = restored
            return record
        }
        welcomes = loaded.state.welcomes
        joinedWelcomes = loaded.state.joinedWelcomes
        unrecoverableGroups = loaded.state.unrecoverable
        lastWritten = loaded.bytes
    }

    package func capabilities() async throws(EngineError) -> EngineCapabilities {
        var capabilities: Set<EngineCapability> = [
            .keyPackage, .legacyKeyPackage, .protectedKeyPackage, .createGroup, .addMembers, .removeMembers, .leave,
            .selfDemote, .selfUpdate, .updateGroupData, .pendingCommit, .applicationMessages, .processWelcome,
            .declineWelcome, .exactState, .protocolSnapshot, .crashPoints, .storeDamage, .hostile, .groupImage, .profileLegacy,
            .profileCurrent,
        ]
        // Only a current-profile group has a lifecycle (0x800c) to disband.
        if profile == .current { capabilities.insert(.disbandGroup) }
        return EngineCapabilities(name: "marmot-conform-swift", version: "0.1", capabilities: capabilities)
    }

    // MARK: - Plumbing shared by the operations

    func record(_ id: MLSGroupID) throws(EngineError) -> GroupRecord {
        guard let record = groups[id] else {
            if let lost = unrecoverableGroups[id] {
                throw EngineError(.groupUnrecoverable, "group \(id.hex) did not load from the state file: \(lost.reason)")
            }
            throw EngineError(.unknownGroup, "no group \(id.hex)")
        }
        return record
    }

    /// A group we are an active member of.
    func activeRecord(_ id: MLSGroupID) throws(EngineError) -> GroupRecord {
        let record = try record(id)
        guard record.state == .active else { throw EngineError(.invalidInput, "group \(id.hex) is \(record.state.rawValue)") }
        return record
    }

    /// Our identity in `record`, which must be an admin.
    func requireAdmin(_ record: GroupRecord) throws(EngineError) -> PublicKey {
        guard let me = record.identity, record.data.admins.contains(me) else {
            throw EngineError(.notAdmin, "only admins may do this (MIP-03)")
        }
        return me
    }
}

/// A processed welcome: the joined group, held until accepted.
struct StoredWelcome: Sendable {
    var summary: PendingWelcome
    var rumor: UnsignedEvent
    var group: Group
    var data: GroupData
}

extension EngineError {
    /// Maps a Marmot failure to the driver protocol's codes.
    init(_ error: MarmotError) {
        let name = error.code.name
        let code: EngineError.Code =
            if name.hasPrefix("keyPackage.") { .invalidKeyPackage } else if name.hasPrefix("welcome.") {
                .invalidWelcome
            } else if name.hasPrefix("encoding.") { .invalidEncoding } else if error.code == .noAdminRemains {
                .lastAdmin
            } else if error.code == .invalidImage { .invalidImage } else if error.code == .imageHashMismatch {
                .imageHashMismatch
            } else if error.code == .imageUndecryptable { .imageUndecryptable } else if error.code == .commitFromNonAdmin {
                .commitFromNonAdmin
            } else if error.code == .profileMismatch { .profileMismatch } else { .engineError }
        self.init(code, error.description)
    }

    init(_ error: MLSError) { self.init(.engineError, error.description) }
}

/// Runs an MLS step inside an engine operation.
func mlsStep<T>(_ body: () throws(MLSError) -> T) throws(EngineError) -> T {
    do { return try body() } catch { throw EngineError(error) }
}

/// Runs a Marmot step inside an engine operation.
func marmotStep<T>(_ body: () throws(MarmotError) -> T) throws(EngineError) -> T {
    do { return try body() } catch { throw EngineError(error) }
}

/// MLS has its own `ReceivedMessage`; in this module the name means the engine interface's.
typealias ReceivedMessage = EngineInterface.ReceivedMessage
