import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import Foundation
import NativeSwiftEngine
import Nostr
import Testing

/// A real 4×4 PNG (MDK decodes what it is given, so the interop half needs a picture, not bytes).
enum ImageFixture {
    static var png: [UInt8] {
        get throws {
            [UInt8](try Data(contentsOf: Vectors.repositoryRoot.appendingPathComponent("scenarios/assets/avatar.png")))
        }
    }

    /// `blob` with one bit flipped at `index`.
    static func flipped(_ blob: [UInt8], at index: Int) -> [UInt8] {
        var copy = blob
        copy[index] ^= 0x01
        return copy
    }
}

/// Our engine's MIP-01 group images on their own: what opens, and what must not.
@Suite struct GroupImageTests {
    static func engine(seed: UInt64 = 7) -> NativeSwiftEngine {
        NativeSwiftEngine(generator: TestGenerator(seed: seed), clock: { MemberBench.fixedTime })
    }

    @Test func preparedImageOpensToTheSameBytes() async throws {
        let png = try ImageFixture.png
        let prepared = try await Self.engine().prepareGroupImage(png, mimeType: "image/png")
        #expect(prepared.encrypted.count == png.count + 16, "ciphertext plus the Poly1305 tag")
        #expect(prepared.encrypted != png)
        #expect(try await Self.engine(seed: 8).decryptGroupImage(prepared.encrypted, with: prepared.image) == png)
    }

    @Test func sameSeedSameBlobOtherSeedOtherBlob() async throws {
        let png = try ImageFixture.png
        let first = try await Self.engine(seed: 1).prepareGroupImage(png, mimeType: "image/png")
        let again = try await Self.engine(seed: 1).prepareGroupImage(png, mimeType: "image/png")
        let other = try await Self.engine(seed: 2).prepareGroupImage(png, mimeType: "image/png")
        #expect(first == again)
        #expect(first.image.hash != other.image.hash)
    }

    // The twins of the check above: a blob that opens must stop opening when anything is wrong.
    @Test func tamperedBlobIsAHashMismatch() async throws {
        let prepared = try await Self.engine().prepareGroupImage(try ImageFixture.png, mimeType: "image/png")
        await #expect(throws: EngineError(.imageHashMismatch, "")) {
            try await Self.engine().decryptGroupImage(ImageFixture.flipped(prepared.encrypted, at: 3), with: prepared.image)
        }
    }

    @Test func wrongKeyWithTheRightHashIsUndecryptable() async throws {
        let prepared = try await Self.engine().prepareGroupImage(try ImageFixture.png, mimeType: "image/png")
        let wrongKey = try #require(
            GroupImage(
                hash: prepared.image.hash, key: ImageFixture.flipped(prepared.image.key, at: 0), nonce: prepared.image.nonce))
        await #expect(throws: EngineError(.imageUndecryptable, "")) {
            try await Self.engine().decryptGroupImage(prepared.encrypted, with: wrongKey)
        }
    }

    @Test func bytesThatAreNotTheNamedTypeAreRefused() async throws {
        let png = try ImageFixture.png
        await #expect(throws: EngineError(.invalidImage, "")) { try await Self.engine().prepareGroupImage(png, mimeType: "image/jpeg") }
        await #expect(throws: EngineError(.invalidImage, "")) {
            try await Self.engine().prepareGroupImage(Array("not a picture".utf8), mimeType: "image/png")
        }
        await #expect(throws: EngineError(.invalidImage, "")) {
            try await Self.engine().prepareGroupImage(png, mimeType: "application/pdf")
        }
        // MIME parameters and case do not matter (as for MDK).
        _ = try await Self.engine().prepareGroupImage(png, mimeType: "Image/PNG; q=1")
    }

    @Test func committedImageReachesEveryMemberSnapshot() async throws {
        var bench = MemberBench(seed: 21, now: MemberBench.fixedTime)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let group = try await bench.createGroup(by: alice, inviting: [bob], name: "Pictured", admins: [alice], description: "")
        #expect(try await bob.engine.group(group).image == nil)
        let prepared = try await alice.engine.prepareGroupImage(try ImageFixture.png, mimeType: "image/png")
        try await MemberBench.commit(
            try await alice.engine.updateGroupData(of: group, GroupDataChanges(image: prepared.image)), by: alice, to: [bob])
        #expect(try await alice.engine.group(group).image == prepared.image)
        #expect(try await bob.engine.group(group).image == prepared.image)
        await #expect(throws: EngineError(.notAdmin, "")) {
            try await bob.engine.updateGroupData(of: group, GroupDataChanges(image: prepared.image))
        }
    }
}

/// The same images across engines: what MDK 0.8.0 prepares our engine opens, and the reverse, in the
/// bare functions and through a mixed group's commits.
@Suite(
    .enabled(if: MDK.isAvailable, "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable the mixed tests"))
struct GroupImageInteropTests {
    @Test func eachEngineOpensTheOthersImage() async throws {
        let driver = try await MDK.launch()
        var bench = MemberBench(seed: 22, now: MemberBench.fixedTime)
        let mdk = try await bench.mdkMember("mdk", in: driver)
        let swift = GroupImageTests.engine()
        let png = try ImageFixture.png

        let fromMDK = try await mdk.engine.prepareGroupImage(png, mimeType: "image/png")
        let mdkOpensItsOwn = try await mdk.engine.decryptGroupImage(fromMDK.encrypted, with: fromMDK.image)
        // MDK re-encodes the picture (metadata stripped) before encrypting: compare with what MDK reads.
        #expect(try await swift.decryptGroupImage(fromMDK.encrypted, with: fromMDK.image) == mdkOpensItsOwn)
        #expect(mdkOpensItsOwn.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        let fromSwift = try await swift.prepareGroupImage(png, mimeType: "image/png")
        #expect(try await mdk.engine.decryptGroupImage(fromSwift.encrypted, with: fromSwift.image) == png)

        // Both engines agree on what is wrong with a bad blob.
        let tampered = ImageFixture.flipped(fromMDK.encrypted, at: 5)
        for engine in [mdk.engine, swift as any ProtocolEngine] {
            await #expect(throws: EngineError(.imageHashMismatch, "")) { try await engine.decryptGroupImage(tampered, with: fromMDK.image) }
        }
        let wrongKey = try #require(
            GroupImage(
                hash: fromSwift.image.hash, key: ImageFixture.flipped(fromSwift.image.key, at: 0), nonce: fromSwift.image.nonce))
        await #expect(throws: EngineError(.imageUndecryptable, "")) {
            try await mdk.engine.decryptGroupImage(fromSwift.encrypted, with: wrongKey)
        }
        await #expect(throws: EngineError(.invalidImage, "")) { try await mdk.engine.prepareGroupImage(png, mimeType: "image/jpeg") }
        await driver.shutdown()
    }

    @Test func imagesCommittedByEitherEngineReachTheOther() async throws {
        let driver = try await MDK.launch()
        var bench = MemberBench(seed: 23, now: MemberBench.fixedTime)
        let alice = bench.swiftMember("alice")
        let bob = try await bench.mdkMember("bob", in: driver)
        let group = try await bench.createGroup(by: alice, inviting: [bob], name: "Pictured", admins: [alice, bob], description: "")

        let ours = try await alice.engine.prepareGroupImage(try ImageFixture.png, mimeType: "image/png")
        try await MemberBench.commit(
            try await alice.engine.updateGroupData(of: group, GroupDataChanges(image: ours.image)), by: alice, to: [bob])
        #expect(try await bob.engine.group(group).image == ours.image)

        let theirs = try await bob.engine.prepareGroupImage(try ImageFixture.png, mimeType: "image/png")
        try await MemberBench.commit(
            try await bob.engine.updateGroupData(of: group, GroupDataChanges(image: theirs.image)), by: bob, to: [alice])
        let seen = try #require(try await alice.engine.group(group).image)
        #expect(seen == theirs.image)
        #expect(try await alice.engine.decryptGroupImage(theirs.encrypted, with: seen).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        await driver.shutdown()
    }
}
