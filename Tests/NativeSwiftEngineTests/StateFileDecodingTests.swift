import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import Testing

/// The state file read as untrusted bytes: every damaged file is a typed `invalid_state_file`
/// error naming what is wrong, or (a flipped byte inside a secret, say) a state that loads;
/// never a trap, never a hang.
@Suite struct StateFileDecodingTests {
    @Test func aStateComesBackByteForByte() async throws {
        let bytes = try await StateRecipe.small.bytes()
        #expect(try NativeSwiftEngine.reencodedState(bytes) == bytes)
        #expect(Array(bytes.prefix(10)) == Array("MCENGINE".utf8) + [0, 2])
    }

    @Test func everyTruncationIsATypedError() async throws {
        let bytes = try await StateRecipe.small.bytes()
        var reasons: Set<String> = []
        for length in 0..<bytes.count {
            do {
                _ = try NativeSwiftEngine.reencodedState(Array(bytes.prefix(length)))
                Issue.record("a state cut at \(length) of \(bytes.count) bytes loaded")
            } catch {
                #expect(error.code == .invalidStateFile)
                reasons.insert(String(error.reason.prefix(while: { $0 != ":" })))
            }
        }
        #expect(reasons.contains("truncated"), "cuts inside the header: \(reasons)")
    }

    @Test func flippedBytesAreTypedErrorsOrLoadableStates() async throws {
        let bytes = try await StateRecipe.small.bytes()
        var refused = 0
        var loaded = 0
        for offset in bytes.indices {
            var damaged = bytes
            damaged[offset] ^= 0xFF
            do {
                _ = try NativeSwiftEngine.reencodedState(damaged)
                loaded += 1
            } catch {
                #expect(error.code == .invalidStateFile, "offset \(offset): \(error)")
                refused += 1
            }
        }
        // Both outcomes occur: structure bytes are refused, bytes inside secrets load.
        #expect(refused > 0 && loaded > 0, "refused \(refused), loaded \(loaded)")
        print("state file of \(bytes.count) bytes, one byte flipped at each offset: \(refused) refused, \(loaded) loaded")
    }

    @Test func headerAndTrailerFaultsNameWhatIsWrong() async throws {
        let bytes = try await StateRecipe.small.bytes()
        func reason(_ damaged: [UInt8]) -> String? {
            do {
                _ = try NativeSwiftEngine.reencodedState(damaged)
                return nil
            } catch {
                return error.code == .invalidStateFile ? error.reason : "wrong code \(error.code)"
            }
        }
        var newer = bytes
        newer[9] = 7
        #expect(reason(newer)?.contains("unknown version 7") == true)
        var older = bytes
        older[9] = 0
        #expect(reason(older)?.contains("unknown version 0") == true)
        var foreign = bytes
        foreign[0] = UInt8(ascii: "X")
        #expect(reason(foreign)?.contains("wrong magic") == true)
        #expect(reason(bytes + [0])?.contains("tls.trailingBytes") == true)
        #expect(reason([])?.contains("truncated") == true)
    }

    /// The engine refuses to start from a file it cannot load, with the path and the reason, and
    /// from a path it cannot read.
    @Test func anEngineDoesNotStartFromABadFile() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/bad.state"
        var damaged = try await StateRecipe.small.bytes()
        damaged[9] = 9
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 1))
        } throws: { error in
            let error = error as? EngineError
            return error?.code == .invalidStateFile && error?.reason.contains(path) == true
                && error?.reason.contains("unknown version 9") == true
        }
        #expect {
            _ = try NativeSwiftEngine.persisting(at: directory.path, stream: ContinuingStream(seed: 1))
        } throws: { error in (error as? EngineError)?.code == .storage }
        // A state file that cannot be written is an error of the operation, not a silent loss.
        var generator = TestGenerator(seed: 3)
        let owner = Keypair.generate(using: &generator).publicKey
        let unwritable = try NativeSwiftEngine.persisting(at: directory.path + "/missing/dir/x.state", stream: ContinuingStream(seed: 1))
        await #expect {
            _ = try await unwritable.createKeyPackage(for: owner, relays: MemberBench.relays, protected: false)
        } throws: { error in (error as? EngineError)?.code == .storage }
    }
}
