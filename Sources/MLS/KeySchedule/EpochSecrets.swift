// The key schedule of RFC 9420 §8:
//
//                  init_secret_[n-1]
//                        |
//   commit_secret --> KDF.Extract
//                        |
//                ExpandWithLabel(., "joiner", GroupContext_[n], KDF.Nh)
//                        |
//                  joiner_secret
//                        |
//   psk_secret (or 0) --> KDF.Extract
//                        |
//                        +--> DeriveSecret(., "welcome") = welcome_secret
//                        |
//                ExpandWithLabel(., "epoch", GroupContext_[n], KDF.Nh)
//                        |
//                   epoch_secret --> DeriveSecret(., <label>) = <secret>
//                        |
//                DeriveSecret(., "init") = init_secret_[n]

/// Every secret of one epoch (`package`: never part of the vended MLS library's API).
package struct EpochSecrets: Hashable, Sendable {
    package let suite: CipherSuite
    package let joinerSecret: [UInt8]
    package let welcomeSecret: [UInt8]
    package let epochSecret: [UInt8]
    package let senderDataSecret: [UInt8]
    package let encryptionSecret: [UInt8]
    package let exporterSecret: [UInt8]
    package let externalSecret: [UInt8]
    package let confirmationKey: [UInt8]
    package let membershipKey: [UInt8]
    package let resumptionPSK: [UInt8]
    package let epochAuthenticator: [UInt8]
    /// init_secret for the next epoch.
    package let initSecret: [UInt8]

    /// Runs the schedule from the previous epoch's init secret.
    package init(
        suite: CipherSuite, initSecret previous: [UInt8], commitSecret: [UInt8], pskSecret: [UInt8]?,
        groupContext: [UInt8]
    ) {
        let joiner = suite.expandWithLabel(
            secret: suite.extract(salt: previous, ikm: commitSecret), label: "joiner", context: groupContext,
            length: suite.hashLength)
        self.init(suite: suite, joinerSecret: joiner, pskSecret: pskSecret, groupContext: groupContext)
    }

    /// Runs the schedule from a joiner secret, as a new member does after a Welcome.
    package init(suite: CipherSuite, joinerSecret: [UInt8], pskSecret: [UInt8]?, groupContext: [UInt8]) {
        self.suite = suite
        self.joinerSecret = joinerSecret
        let zero = [UInt8](repeating: 0, count: suite.hashLength)
        let member = suite.extract(salt: joinerSecret, ikm: pskSecret ?? zero)
        welcomeSecret = suite.deriveSecret(secret: member, label: "welcome")
        let epoch = suite.expandWithLabel(secret: member, label: "epoch", context: groupContext, length: suite.hashLength)
        epochSecret = epoch
        senderDataSecret = suite.deriveSecret(secret: epoch, label: "sender data")
        encryptionSecret = suite.deriveSecret(secret: epoch, label: "encryption")
        exporterSecret = suite.deriveSecret(secret: epoch, label: "exporter")
        externalSecret = suite.deriveSecret(secret: epoch, label: "external")
        confirmationKey = suite.deriveSecret(secret: epoch, label: "confirm")
        membershipKey = suite.deriveSecret(secret: epoch, label: "membership")
        resumptionPSK = suite.deriveSecret(secret: epoch, label: "resumption")
        epochAuthenticator = suite.deriveSecret(secret: epoch, label: "authentication")
        initSecret = suite.deriveSecret(secret: epoch, label: "init")
    }

    /// welcome_secret, which a joiner needs before it can read the GroupContext.
    package static func welcomeSecret(suite: CipherSuite, joinerSecret: [UInt8], pskSecret: [UInt8]?) -> [UInt8] {
        let zero = [UInt8](repeating: 0, count: suite.hashLength)
        return suite.deriveSecret(secret: suite.extract(salt: joinerSecret, ikm: pskSecret ?? zero), label: "welcome")
    }

    /// MLS-Exporter(label, context, length) (§8.5).
    package func exporter(label: String, context: [UInt8], length: Int) -> [UInt8] {
        let derived = suite.expandWithLabel(
            secret: exporterSecret, label: label, context: [], length: suite.hashLength)
        return suite.expandWithLabel(secret: derived, label: "exported", context: suite.hash(context), length: length)
    }

    /// The public half of the external key pair (§8.3), for the external_pub extension.
    package func externalPublicKey() throws(MLSError) -> [UInt8] {
        try suite.deriveKeyPair(secret: externalSecret).publicKey
    }

    /// The welcome key and nonce that seal the GroupInfo in a Welcome (§12.4.3.1).
    package static func welcomeKeyAndNonce(suite: CipherSuite, welcomeSecret: [UInt8]) -> (key: [UInt8], nonce: [UInt8]) {
        (
            suite.expandWithLabel(secret: welcomeSecret, label: "key", context: [], length: suite.aeadKeyLength),
            suite.expandWithLabel(secret: welcomeSecret, label: "nonce", context: [], length: suite.aeadNonceLength)
        )
    }
}
