import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import Synchronization
import Testing

/// One random stream that outlives the engines drawing from it: an engine restarted on the same
/// stream draws exactly the bytes the stopped one would have drawn next, so the restarted engine
/// can be compared byte for byte with a twin that never stopped. (In a run the world gives a
/// restarted engine a fresh stream instead; that is H2's side and changes outputs, not state.)
final class ContinuingStream: Sendable {
    private let generator: Mutex<TestGenerator>

    init(seed: UInt64) { generator = Mutex(TestGenerator(seed: seed)) }

    var handle: Handle { Handle(stream: self) }

    struct Handle: RandomNumberGenerator, Sendable {
        let stream: ContinuingStream
        mutating func next() -> UInt64 { stream.generator.withLock { $0.next() } }
    }
}

/// A directory for one test's state files, removed when the test ends.
struct StateDirectory: ~Copyable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("engine-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension NativeSwiftEngine {
    /// A persisting engine on `stream` with the tests' fixed clock.
    static func persisting(at path: String, stream: ContinuingStream, now: UInt64 = MemberBench.fixedTime) throws
        -> NativeSwiftEngine
    {
        try NativeSwiftEngine(generator: stream.handle, clock: { now }, stateFile: path)
    }
}
