import ConformanceTestSupport
import Foundation
import HexEncoding
import MLS
import Marmot
import Nostr
import Testing

/// Account identity proof v2 (0x8009): the specification's own signing vector, every proof MDK
/// v0.11.0 and the pinned OpenMLS wrote into captured key packages, Welcome trees and Adds, and the
/// negatives failing for the reason their case names.
@Suite struct AccountIdentityProofTests {
    struct SpecVector {
        let file: [String: Any]
        func string(_ key: String) throws -> String { try MDKVectors.string(file, key) }
        func bytes(_ key: String) throws -> [UInt8] { try MDKVectors.bytes(file, key) }
        init() throws { file = try MDKVectors.file("account-identity-proof-v2.json", folder: "marmot-spec") }
    }

    @Test func specVectorTemplateIDSignatureAndBytes() throws {
        let vector = try SpecVector()
        let account = Keypair(secretKey: try SecretKey(hex: try vector.string("secret_key_test_only")))
        #expect(account.publicKey.hex == (try vector.string("signer_pubkey")))
        let createdAt = UInt64(try #require(vector.file["created_at"] as? Int))
        let template = try AccountIdentityProof.template(
            signer: account.publicKey, createdAt: createdAt, suite: 0x0001, signatureKey: try vector.bytes("mls_signature_key"))
        #expect(template.canonicalSerialization() == (try vector.string("canonical_serialization")))
        #expect(template.id.hex == (try vector.string("event_id")))
        let proof = try AccountIdentityProof.create(
            account: account, createdAt: createdAt, suite: 0x0001, signatureKey: try vector.bytes("mls_signature_key"),
            auxRandom: try vector.bytes("aux_random"))
        #expect(proof.signature == (try vector.bytes("signature")))
        #expect(proof.encoded() == (try vector.bytes("component_data")))
        let decoded = try AuthorizationProof(bytes: try vector.bytes("component_data"))
        #expect(decoded == proof)
        try AccountIdentityProof.verify(
            decoded, account: account.publicKey, suite: 0x0001, signatureKey: try vector.bytes("mls_signature_key"))
    }

    /// Twins of the verifier: each changed input fails with its own code.
    @Test func specVectorNegatives() throws {
        let vector = try SpecVector()
        let data = try vector.bytes("component_data")
        let key = try vector.bytes("mls_signature_key")
        let proof = try AuthorizationProof(bytes: data)
        var otherKey = key
        otherKey[0] ^= 1
        #expect(throws: MarmotError(.proofBadSignature, "")) {
            try AccountIdentityProof.verify(proof, account: proof.signer, suite: 0x0001, signatureKey: otherKey)
        }
        #expect(throws: MarmotError(.proofBadSignature, "")) {
            try AccountIdentityProof.verify(proof, account: proof.signer, suite: 0x0003, signatureKey: key)
        }
        let stranger = Keypair(secretKey: try SecretKey(hex: String(repeating: "0", count: 63) + "5")).publicKey
        #expect(throws: MarmotError(.proofSignerMismatch, "")) {
            try AccountIdentityProof.verify(proof, account: stranger, suite: 0x0001, signatureKey: key)
        }
        #expect(throws: MarmotError(.proofMalformed, "")) { try AuthorizationProof(bytes: Array(data.dropLast())) }
        #expect(throws: MarmotError(.proofMalformed, "")) { try AuthorizationProof(bytes: data + [0]) }
        var zeroTime = data
        for i in 32..<40 { zeroTime[i] = 0 }
        #expect(throws: MarmotError(.proofMalformed, "")) { try AuthorizationProof(bytes: zeroTime) }
        var tooLate = data
        tooLate[32] = 0x00
        tooLate[33] = 0x20  // 2^53
        #expect(throws: MarmotError(.proofMalformed, "")) { try AuthorizationProof(bytes: tooLate) }
    }

    /// A proof we make for a leaf verifies, and is the same bytes for the same seed.
    @Test func createdLeafExtensionVerifiesAndIsDeterministic() throws {
        let account = Keypair(secretKey: try SecretKey(hex: String(repeating: "0", count: 63) + "7"))
        var first = TestGenerator(seed: 9)
        var second = TestGenerator(seed: 9)
        let signatureKey = [UInt8](repeating: 0xab, count: 32)
        let a = try LeafComponents.leafExtension(
            account: account, signatureKey: signatureKey, suite: 1, supported: [.groupProfile, .adminPolicy], createdAt: 1_790_000_000,
            using: &first)
        let b = try LeafComponents.leafExtension(
            account: account, signatureKey: signatureKey, suite: 1, supported: [.groupProfile, .adminPolicy], createdAt: 1_790_000_000,
            using: &second)
        #expect(a == b)
        let dictionary = try #require(try AppDataDictionary.marmot(in: [a]))
        #expect(dictionary.components == [.appComponents, .safeAAD, .accountIdentityProof])
        #expect(try AppComponents.marmot(in: dictionary)?.ids == [.appComponents, .groupProfile, .adminPolicy, .accountIdentityProof])
        let proof = try AuthorizationProof(bytes: try #require(dictionary[component: .accountIdentityProof]))
        try AccountIdentityProof.verify(proof, account: account.publicKey, suite: 1, signatureKey: signatureKey)
    }

    /// Every key package captured in the three files carries a valid proof of its credential's account.
    @Test func everyCapturedKeyPackageProofVerifies() throws {
        let packages = try MDK011.allKeyPackages()
        for (name, keyPackage) in packages {
            let leaf = try LeafComponents(verifying: keyPackage.leafNode, suite: keyPackage.cipherSuite)
            guard case .basic(let identity) = keyPackage.leafNode.credential else {
                Issue.record("\(name): no basic credential")
                continue
            }
            #expect(leaf.account.bytes == identity, "\(name)")
            #expect(leaf.supported.contains(.accountIdentityProof), "\(name)")
        }
        #expect(packages.count == 7)
        print("MDK 0.11 identity proofs: \(packages.count) key-package proofs verified")
    }

    /// Twins of the leaf rules on a captured key package's leaf: each edit fails with its code.
    @Test func leafRuleTwins() throws {
        let leaf = try MDK011.keyPackage(try MDK011.groups(), "engine_default/joiner_key_package_mls_message").leafNode
        func code(_ edit: (inout LeafNode) -> Void) -> MarmotError.Code? {
            var copy = leaf
            edit(&copy)
            do { _ = try LeafComponents(verifying: copy, suite: 1) } catch { return error.code }
            return nil
        }
        #expect(code { _ in } == nil)
        #expect(code { $0.extensions.append(Extension(type: 0xf2f1, data: [])) } == .profileMismatch)
        #expect(code { $0.signatureKey[0] ^= 1 } == .proofBadSignature)
        #expect(code { $0.credential = .basic(identity: [UInt8](repeating: 1, count: 31)) } == .proofBadCredential)
        let stranger = Keypair(secretKey: try SecretKey(hex: String(repeating: "0", count: 63) + "5")).publicKey
        #expect(code { $0.credential = .basic(identity: stranger.bytes) } == .proofSignerMismatch)
        #expect(code { $0.extensions = [] } == .proofMissing)
        let dictionary = try #require(try AppDataDictionary.marmot(in: leaf.extensions))
        #expect(code { $0.extensions = [dictionary.removing(.accountIdentityProof).mlsExtension] } == .proofMissing)
        var unadvertised = dictionary
        unadvertised.set(AppComponentID.appComponents.rawValue, to: AppComponents([.appComponents, .groupProfile]).encoded())
        #expect(code { $0.extensions = [unadvertised.mlsExtension] } == .proofNotAdvertised)
        var short = dictionary
        short.set(AppComponentID.accountIdentityProof.rawValue, to: [UInt8](repeating: 1, count: 103))
        #expect(code { $0.extensions = [short.mlsExtension] } == .proofMalformed)
    }

    /// Every leaf of both adopted Welcome trees (recorded ratchet_tree) carries a valid proof.
    @Test(arguments: MDK011.adoptedGroups)
    func everyAdoptedTreeLeafProofVerifies(group: String) throws {
        let tree = try RatchetTree(bytes: try MDKVectors.bytes(try MDK011.groups(), "\(group)/ratchet_tree"))
        var count = 0
        for index in tree.occupiedLeaves {
            _ = try LeafComponents(verifying: try #require(tree.leaf(index)), suite: 1)
            count += 1
        }
        #expect(count == 2)
        print("MDK 0.11 identity proofs: \(group) tree, \(count) leaves verified")
    }

    /// The six OpenMLS Welcomes, opened as the recorded joiner: Control's tree verifies throughout;
    /// BadProof and MissingProof fail the proof check for their reason; the other three fail the
    /// group rules they name (the Welcome-level verdicts are in CurrentGroupComponentsTests).
    @Test func openMLSNegativeWelcomeProofs() throws {
        let groups = try MDK011.groups()
        let keyPackage = try MDK011.keyPackage(groups, "openmls_negatives/joiner_key_package")
        var results: [String: MarmotError.Code?] = [:]
        for name in ["Control", "BadProof", "MissingProof", "MissingRequiredCapability", "MixedGroup", "NonAdminInviter"] {
            let info = try MDK011.openWelcome(
                groups, welcome: "openmls_negatives/welcomes/\(name)", keyPackage: keyPackage,
                privatePath: "openmls_negatives/joiner_private")
            let tree = try MDK011.tree(of: info)
            var failure: MarmotError.Code?
            for index in tree.occupiedLeaves {
                let leaf = try #require(tree.leaf(index))
                do { _ = try LeafComponents(verifying: leaf, suite: 1) } catch {
                    failure = error.code
                    break
                }
            }
            results[name] = failure
        }
        #expect(results["Control"] == .some(nil))
        #expect(results["BadProof"] == .some(.proofBadSignature))
        #expect(results["MissingProof"] == .some(.proofMissing))
        #expect(results["NonAdminInviter"] == .some(nil))
        print("MDK 0.11 identity proofs: openmls_negatives welcomes \(results.mapValues { $0?.name ?? "valid" })")
    }

    /// The Adds of captured commits: the added key package's proof verifies for the valid cases,
    /// and is missing or forged exactly where the case says.
    @Test func addedKeyPackageProofs() throws {
        let groups = try MDK011.groups()
        let commits = try MDK011.commits()
        let cases: [(String, [UInt8], MarmotError.Code?)] = [
            ("negatives add_valid", try MDKVectors.bytes(groups, "openmls_negatives/commits/add_valid"), nil),
            ("negatives add_without_proof", try MDKVectors.bytes(groups, "openmls_negatives/commits/add_without_proof"), .proofMissing),
            ("negatives add_missing_component", try MDKVectors.bytes(groups, "openmls_negatives/commits/add_missing_component"), nil),
            ("forgeries ok_add", try MDKVectors.bytes(commits, "openmls_forgeries/commits/ok_add/message"), nil),
            (
                "forgeries add_bad_proof", try MDKVectors.bytes(commits, "openmls_forgeries/commits/add_bad_proof/message"),
                .proofBadSignature
            ),
            (
                "forgeries add_without_proof", try MDKVectors.bytes(commits, "openmls_forgeries/commits/add_without_proof/message"),
                .proofMissing
            ),
        ]
        var checked = 0
        for (name, bytes, expected) in cases {
            let adds = try ProposalWalker.proposals(bytes).proposals.compactMap { item -> KeyPackage? in
                if case .proposal(.add(let keyPackage)) = item { return keyPackage }
                return nil
            }
            #expect(adds.count == 1, "\(name)")
            for keyPackage in adds {
                var code: MarmotError.Code?
                do { _ = try LeafComponents(verifying: keyPackage.leafNode, suite: 1) } catch { code = error.code }
                #expect(code == expected, "\(name)")
                checked += 1
            }
        }
        // add_missing_component: the proof is fine; the leaf does not support the required 0x800c.
        let missing = try ProposalWalker.proposals(try MDKVectors.bytes(groups, "openmls_negatives/commits/add_missing_component"))
            .proposals
        for case .proposal(.add(let keyPackage)) in missing {
            #expect(!(try LeafComponents(verifying: keyPackage.leafNode, suite: 1)).supported.contains(.groupLifecycle))
        }
        print("MDK 0.11 identity proofs: \(checked) added key packages checked")
    }
}
