import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import Foundation
import Nostr
import Testing

/// The MDK driver from the repository's venv, or nil when ci/setup has not created the venv.
enum MDKDriver {
    static let script = Vectors.repositoryRoot.appendingPathComponent("drivers/mdk/driver.py").path

    static var isAvailable: Bool { Peers.shouldRun }

    /// The world shim ci/setup builds, when present.
    static var shim: String? {
        let path = Vectors.repositoryRoot.appendingPathComponent(".venv/lib/libworldshim.so").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The driver, on the wall clock and OS randomness unless `withShim` (then every request must carry `world`).
    static func launch(withShim: Bool = false) async throws -> DriverProcess {
        guard let python = PythonVenv.interpreter else {
            throw PythonVenv.Unavailable.noVenv(Vectors.repositoryRoot.appendingPathComponent(".venv").path)
        }
        let preload: String? = withShim ? shim : nil  // nil removes an inherited LD_PRELOAD
        return await DriverProcess.launch(
            executable: python.path, arguments: [script], environment: ["LD_PRELOAD": preload, "PYTHONHASHSEED": "0"])
    }
}

/// A few members sharing one driver process, all derived from one seed (the steps are `MemberBench`'s).
struct Bench {
    static let relays = MemberBench.relays
    /// Key-package events carry this creation time; MDK checks the KeyPackage's own lifetime, not the event's.
    static let keyPackageTime: UInt64 = 1_795_000_000

    let driver: DriverProcess
    var steps: MemberBench
    var generator: TestGenerator {
        get { steps.generator }
        set { steps.generator = newValue }
    }

    init(driver: DriverProcess, seed: UInt64) {
        self.driver = driver
        steps = MemberBench(seed: seed, keyPackageTime: Self.keyPackageTime)
    }

    mutating func member(_ name: String) async throws -> Member {
        let keypair = Keypair.generate(using: &steps.generator)
        let engine = try await driver.makeEngine(instance: name, encryptionKey: steps.generator.bytes(32))
        return Member(name: name, keypair: keypair, engine: engine)
    }

    mutating func keyPackage(of member: Member) async throws -> Event { try await steps.keyPackage(of: member) }

    mutating func deliverWelcome(_ rumor: UnsignedEvent, from sender: Member, to recipient: Member) throws
        -> (wrapperID: EventID, rumor: UnsignedEvent)
    {
        try steps.deliverWelcome(rumor, from: sender, to: recipient)
    }

    mutating func join(_ recipient: Member, rumor: UnsignedEvent, from sender: Member, groupName: String) async throws
        -> GroupSnapshot
    {
        try await steps.join(recipient, rumor: rumor, from: sender, groupName: groupName)
    }

    static func commit(_ evolution: GroupEvolution, by author: Member, to receivers: [Member]) async throws {
        try await MemberBench.commit(evolution, by: author, to: receivers)
    }
}
