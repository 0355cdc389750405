import MLS
import TLSCodec
import Testing

/// welcome.json: open the Welcome with init_priv, check the GroupInfo signature and confirmation tag.
@Suite struct WelcomeVectorTests {
    struct Case: SuiteCase {
        let cipher_suite: UInt16
        let init_priv: Hex
        let signer_pub: Hex
        let key_package: Hex
        let welcome: Hex
    }

    @Test func welcomeVectors() throws {
        try VectorRun.suites("welcome.json", Case.self) { c, suite, checks in
            guard case .keyPackage(let keyPackage) = try MLSMessage(tlsBytes: c.key_package.bytes).body,
                case .welcome(let welcome) = try MLSMessage(tlsBytes: c.welcome.bytes).body
            else {
                checks.require(false, "key_package and welcome wire formats")
                return
            }
            checks.equal(try suite.hpkePublicKey(of: c.init_priv.bytes), keyPackage.initKey, "init_priv matches init_key")
            let opened = checks.noThrow("open welcome") {
                try welcome.open(keyPackage: keyPackage, initPrivateKey: c.init_priv.bytes, suite: suite) {
                    (ids: [PreSharedKeyID]) throws(MLSError) in
                    guard ids.isEmpty else { throw MLSError(.missingPSK, "vector has no PSKs") }
                    return []
                }
            }
            checks.require(
                opened?.groupInfo.verifySignature(suite: suite, publicKey: c.signer_pub.bytes) == true,
                "group info signature")
            var tampered = welcome
            tampered.encryptedGroupInfo[0] ^= 1
            checks.require(
                (try? tampered.open(keyPackage: keyPackage, initPrivateKey: c.init_priv.bytes, suite: suite) {
                    (_: [PreSharedKeyID]) throws(MLSError) in []
                }) == nil, "tampered welcome rejected")
        }
    }
}
