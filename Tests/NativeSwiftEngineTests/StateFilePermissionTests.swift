import ConformanceTestSupport
import EngineTestSupport
import Foundation
import Nostr
import Testing

@testable import NativeSwiftEngine

/// Issue 30, N6: the state file holds every group's secrets, so only its owner may read it: the
/// engine writes it 0600 and makes a missing directory 0700, and a file left readable by others
/// is replaced by an owner-only one at the next write.
@Suite struct StateFilePermissionTests {
    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func makeKeyPackage(_ engine: NativeSwiftEngine, seed: UInt64) async throws {
        var generator = TestGenerator(seed: seed)
        _ = try await engine.createKeyPackage(
            for: Keypair.generate(using: &generator).publicKey, relays: MemberBench.relays, protected: false)
    }

    @Test func theFileIsOwnerOnlyAndSoIsADirectoryTheEngineMakes() async throws {
        let directory = try StateDirectory()
        let nested = directory.path + "/member"
        let path = nested + "/alice.state"
        let engine = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 30))
        try await Self.makeKeyPackage(engine, seed: 30)
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(nested) == 0o700)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"), "no temporary file is left behind")
    }

    @Test func aFileOthersCouldReadIsReplacedByAnOwnerOnlyOne() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/bob.state"
        let engine = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 31))
        try await Self.makeKeyPackage(engine, seed: 31)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try await Self.makeKeyPackage(engine, seed: 32)
        #expect(try Self.mode(path) == 0o600)
    }
}
