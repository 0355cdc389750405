import MLS
import TLSCodec
import Testing

/// passive-client-welcome.json, passive-client-handling-commit.json, passive-client-random.json:
/// join from the Welcome, then follow every commit and compare epoch authenticators.
@Suite struct PassiveClientVectorTests {
    struct Case: SuiteCase {
        struct PSK: Decodable {
            let psk_id: Hex
            let psk: Hex
        }
        struct Epoch: Decodable {
            let proposals: [Hex]
            let commit: Hex
            let epoch_authenticator: Hex
        }
        let cipher_suite: UInt16
        let external_psks: [PSK]
        let key_package: Hex
        let signature_priv: Hex
        let encryption_priv: Hex
        let init_priv: Hex
        let welcome: Hex
        let ratchet_tree: Hex?
        let initial_epoch_authenticator: Hex
        let epochs: [Epoch]
    }

    static func run(_ c: Case, _ suite: CipherSuite, _ checks: inout FieldChecks) throws {
        guard case .keyPackage(let keyPackage) = try MLSMessage(tlsBytes: c.key_package.bytes).body,
            case .welcome(let welcome) = try MLSMessage(tlsBytes: c.welcome.bytes).body
        else {
            checks.require(false, "key_package and welcome wire formats")
            return
        }
        checks.equal(try suite.signaturePublicKey(of: c.signature_priv.bytes), keyPackage.leafNode.signatureKey, "signature_priv")
        checks.equal(try suite.hpkePublicKey(of: c.encryption_priv.bytes), keyPackage.leafNode.encryptionKey, "encryption_priv")
        checks.equal(try suite.hpkePublicKey(of: c.init_priv.bytes), keyPackage.initKey, "init_priv")
        let own = KeyPackagePrivate(
            keyPackage: keyPackage, initPrivateKey: c.init_priv.bytes, encryptionPrivateKey: c.encryption_priv.bytes,
            signaturePrivateKey: c.signature_priv.bytes)
        let tree = try c.ratchet_tree.map { try RatchetTree(bytes: $0.bytes) }
        let psks = Dictionary(c.external_psks.map { ($0.psk_id.bytes, $0.psk.bytes) }, uniquingKeysWith: { a, _ in a })
        guard var group = checks.noThrow("join", { try Group(welcome: welcome, keyPackage: own, ratchetTree: tree, externalPSKs: psks) })
        else { return }
        checks.equal(group.epochAuthenticator, c.initial_epoch_authenticator.bytes, "initial_epoch_authenticator")
        for (n, epoch) in c.epochs.enumerated() {
            for (p, proposal) in epoch.proposals.enumerated() {
                guard checks.noThrow("epochs[\(n)].proposals[\(p)]", { try group.process(MLSMessage(tlsBytes: proposal.bytes)) }) != nil
                else { return }
            }
            guard checks.noThrow("epochs[\(n)].commit", { try group.process(MLSMessage(tlsBytes: epoch.commit.bytes)) }) != nil
            else { return }
            checks.equal(group.epochAuthenticator, epoch.epoch_authenticator.bytes, "epochs[\(n)].epoch_authenticator")
        }
    }

    @Test func passiveClientWelcomeVectors() throws {
        try VectorRun.suites("passive-client-welcome.json", Case.self, Self.run)
    }

    @Test func passiveClientHandlingCommitVectors() throws {
        try VectorRun.suites("passive-client-handling-commit.json", Case.self, Self.run)
    }

    @Test func passiveClientRandomVectors() throws {
        try VectorRun.suites("passive-client-random.json", Case.self, Self.run)
    }
}
