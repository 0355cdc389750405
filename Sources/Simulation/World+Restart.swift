import DeterministicScheduler
import EngineInterface
import FoundationEssentials
import GroupCore
import Nostr
import Synchronization

/// A member that starts again at `time`.
struct PendingStart: Sendable {
    let time: VirtualInstant
    let member: String
}

/// The run's storage: one directory per member under a temporary root, removed with the world.
final class StorageRoot: Sendable {
    let path: String

    init() {
        // Outside the run (a path no trace or state names): the process id and a counter keep
        // concurrent worlds apart.
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/marmot-world-\(ProcessInfo.processInfo.processIdentifier)-\(StorageRoot.counter.next())"
        // Owner-only: members' state files hold their groups' secrets (issue 30, N6).
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The member's directory (made by `makeDirectory(of:)` at each of its starts).
    func directory(of label: String) -> String { "\(path)/\(label)" }

    /// Makes the member's directory if it is not there yet, and returns it.
    func makeDirectory(of label: String) -> String {
        let directory = directory(of: label)
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }

    private static let counter = Counter()
}

private final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

// A restart: the member's app stops and starts again from what it persisted. While it is down its
// connections are closed (RelayNetwork+Restarts.swift), its timers are gone, and nothing reaches it;
// then its engine is made again by the factory on the same storage directory (the next `start`),
// and its core is made from the state the world wrote after its last input (docs/core-state-format.md)
// and started. The member's keys, configuration and update channel stay: the same user, the same UI
// host.
extension World {
    /// The file the world writes a persisting member's core state to after every input.
    static let coreStateFile = "core-state.json"

    /// Stops `label` now and starts it again `down` later (on the timeline: other members go on).
    package func restart(_ label: String, down: VirtualDuration) {
        guard members[label] != nil, !downMembers.contains(label) else { return }
        record("member", label, "stopped, starts again in \(down.microseconds / 1_000) ms")
        network.stop(label)
        timers.removeAll { $0.member == label }
        blobFetches.removeAll { $0.member == label }
        downMembers.insert(label)
        let start = PendingStart(time: now.advanced(by: down), member: label)
        let index = pendingStarts.firstIndex { $0.time > start.time } ?? pendingStarts.endIndex
        pendingStarts.insert(start, at: index)
    }

    /// Whether `label` is stopped now.
    package func isDown(_ label: String) -> Bool { downMembers.contains(label) }

    /// Carries out the restarts fault rules asked for; false when there was none.
    func carryOutRestartRequests() async -> Bool {
        let requests = network.takeRestartRequests()
        for request in requests { restart(request.member, down: request.down) }
        return !requests.isEmpty
    }

    /// The member's next start: a new engine on its storage, a core from its persisted state.
    func startAgain(_ label: String) async {
        guard let member = members[label], let options = memberOptions[label] else { return }
        let start = (startCounts[label] ?? 0) + 1
        startCounts[label] = start
        downMembers.remove(label)
        let stream = generator.child("member/\(label)")
        clock.set(network.unixSeconds)
        let configuration = coreConfiguration(keypair: member.keypair, label: label, options: options)
        let engine: any ProtocolEngine
        do {
            engine = try await engineFactory(
                engineContext(label, storageKey: member.storageKey, stream: stream, start: start, accountKey: member.keypair))
        } catch {
            // The member stays down: the run's checks then see it missing from every group.
            record("member", label, "could not start again: \(error)")
            restartFailures.append("\(label): could not start again: \(error)")
            downMembers.insert(label)
            return
        }
        let core = GroupCore(configuration: configuration, engine: engine, generator: stream.child("core/start-\(start)"))
        if options.behaviour.recovery.persistsAcrossRestart, let storage {
            let path = "\(storage.directory(of: label))/\(Self.coreStateFile)"
            do {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CoreError(.stateUnreadable, "no state file at \(path)")
                }
                try await core.restore(try CoreSnapshot(decoding: Array(data)))
            } catch {
                record("member", label, "state not restored: \(error)")
                restartFailures.append("\(label): state not restored: \(error)")
            }
        }
        members[label]?.core = core
        members[label]?.engine = engine
        record("member", label, "started again (start \(start))")
        await feed(.start, to: label)
    }

    /// Writes the member's core state after an input (runs that persist only).
    func persist(_ label: String) async {
        guard let storage, let core = members[label]?.core else { return }
        let path = "\(storage.directory(of: label))/\(Self.coreStateFile)"
        do {
            let bytes = try await core.snapshot().encoded()
            // Written whole and renamed over the old file (an atomic write, as the engine's state
            // file), so a stop between two inputs finds the last complete state.
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            record("member", label, "state not persisted: \(error)")
            restartFailures.append("\(label): state not persisted: \(error)")
        }
    }

    /// What the engine factory is given at a member's `start`.
    func engineContext(_ label: String, storageKey: [UInt8], stream: SeededGenerator, start: Int, accountKey: Keypair) -> EngineContext {
        // Start 0 keeps the stream every run before restarts existed used (same fingerprints).
        var context = EngineContext(
            label: label, storageKey: storageKey, generator: stream.child(start == 0 ? "engine" : "engine/start-\(start)"),
            clock: clock.reader, storageDirectory: storage?.makeDirectory(of: label) ?? "", start: start,
            persistent: storage != nil, profile: memberOptions[label]?.marmotProfile ?? .legacy, accountKey: accountKey,
            crashSwitch: crashSwitch(of: label))
        context.retainedEventIDs = memberOptions[label]?.retainedEventIDs
        return context
    }

    func coreConfiguration(keypair: Keypair, label: String, options: MemberOptions) -> CoreConfiguration {
        var configuration = CoreConfiguration(
            keypair: keypair, profileName: options.profileName ?? label,
            discoveryRelays: options.discoveryRelays.map(WorldConfiguration.url(of:)),
            keyPackageRelays: options.keyPackageRelays.map(WorldConfiguration.url(of:)),
            inboxRelays: options.inboxRelays.map(WorldConfiguration.url(of:)),
            groupRelays: options.groupRelays.map(WorldConfiguration.url(of:)),
            behaviour: options.behaviour
        )
        configuration.profilePicture = options.profilePicture
        // What the member reads from its relays' NIP-11 documents, unless the test set it.
        configuration.relayEventLimits = options.relayEventLimits ?? relayEventLimits
        configuration.marmotProfile = options.marmotProfile
        configuration.crashSwitch = crashSwitch(of: label)
        return configuration
    }
}
