import ConformanceTestSupport
import EngineTestSupport
import NativeSwiftEngine
import Nostr

extension MemberBench {
    /// A fixed time for Swift-only tests (the KeyPackage lifetimes and 445 windows are relative to it).
    static let fixedTime: UInt64 = 1_795_300_000

    /// A bench whose native members all read one fixed clock (`keyPackageTime`).
    init(seed: UInt64, now: UInt64 = Self.fixedTime) { self.init(seed: seed, keyPackageTime: now) }

    /// A member running our engine, seeded from the bench so runs are reproducible; its clock reads
    /// `keyPackageTime`.
    mutating func swiftMember(_ name: String) -> Member {
        let keypair = Keypair.generate(using: &generator)
        let time = keyPackageTime
        let engine = NativeSwiftEngine(generator: TestGenerator(seed: generator.next()), clock: { time })
        return Member(name: name, keypair: keypair, engine: engine)
    }
}
