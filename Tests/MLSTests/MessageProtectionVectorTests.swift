import ConformanceTestSupport
import MLS
import TLSCodec
import Testing

/// message-protection.json: unprotect the given PublicMessages and PrivateMessages, and protect
/// the plain contents ourselves and unprotect them again.
@Suite struct MessageProtectionVectorTests {
    struct Case: SuiteCase {
        let cipher_suite: UInt16
        let group_id: Hex
        let epoch: UInt64
        let tree_hash: Hex
        let confirmed_transcript_hash: Hex
        let signature_priv: Hex
        let signature_pub: Hex
        let encryption_secret: Hex
        let sender_data_secret: Hex
        let membership_key: Hex
        let proposal: Hex
        let proposal_priv: Hex
        let proposal_pub: Hex
        let commit: Hex
        let commit_priv: Hex
        let commit_pub: Hex
        let application: Hex
        let application_priv: Hex
    }

    /// The vectors' group has two members; the sender is leaf 1.
    static let sender: UInt32 = 1

    @Test func messageProtectionVectors() throws {
        try VectorRun.suites("message-protection.json", Case.self) { c, suite, checks in
            let context = GroupContext(
                cipherSuite: suite.id, groupID: c.group_id.bytes, epoch: c.epoch, treeHash: c.tree_hash.bytes,
                confirmedTranscriptHash: c.confirmed_transcript_hash.bytes, extensions: [])
            checks.equal(try suite.signaturePublicKey(of: c.signature_priv.bytes), c.signature_pub.bytes, "signature_pub")
            // Each given PrivateMessage was made from a fresh secret tree, so each is read with a fresh
            // one; our own messages share one sender and one receiver tree, as real members do.
            func freshTree() -> SecretTree {
                SecretTree(suite: suite, encryptionSecret: c.encryption_secret.bytes, leafCount: 2)
            }
            var receiverTree = freshTree()
            var senderTree = SecretTree(suite: suite, encryptionSecret: c.encryption_secret.bytes, leafCount: 2)
            var generator = TestGenerator(seed: 9420)

            let contents: [(name: String, content: Content, pub: [UInt8]?, priv: [UInt8])] = [
                ("proposal", .proposal(try Proposal(tlsBytes: c.proposal.bytes)), c.proposal_pub.bytes, c.proposal_priv.bytes),
                ("commit", .commit(try Commit(tlsBytes: c.commit.bytes)), c.commit_pub.bytes, c.commit_priv.bytes),
                ("application", .application(c.application.bytes), nil, c.application_priv.bytes),
            ]
            func unprotect(_ bytes: [UInt8], _ tree: inout SecretTree) throws -> AuthenticatedContent {
                let message = try MLSMessage(tlsBytes: bytes)
                let content: AuthenticatedContent
                switch message.body {
                case .publicMessage(let m):
                    content = try m.unprotect(suite: suite, membershipKey: c.membership_key.bytes, context: context)
                case .privateMessage(let m):
                    content = try m.unprotect(
                        suite: suite, secretTree: &tree, senderDataSecret: c.sender_data_secret.bytes)
                default: throw MLSError(.malformed, "not a framed message")
                }
                try content.verifySignature(suite: suite, publicKey: c.signature_pub.bytes, context: context)
                return content
            }
            for item in contents {
                // The given messages.
                if let pub = item.pub {
                    var unused = freshTree()
                    let got = checks.noThrow("\(item.name)_pub") { try unprotect(pub, &unused) }
                    checks.equal(got?.content.content, item.content, "\(item.name)_pub content")
                }
                var tree = freshTree()
                let got = checks.noThrow("\(item.name)_priv") { try unprotect(item.priv, &tree) }
                checks.equal(got?.content.content, item.content, "\(item.name)_priv content")

                // Our own protection of the same content, read back.
                let framed = FramedContent(
                    groupID: c.group_id.bytes, epoch: c.epoch, sender: .member(leafIndex: Self.sender),
                    authenticatedData: [], content: item.content)
                let tag: [UInt8]? = if case .commit = item.content { Array(repeating: 0x5a, count: 32) } else { nil }
                let signedPublic = try AuthenticatedContent.sign(
                    framed, wireFormat: WireFormat.publicMessage, context: context, suite: suite,
                    signaturePrivateKey: c.signature_priv.bytes, confirmationTag: tag)
                if item.pub == nil {
                    checks.require(
                        (try? PublicMessage.protect(
                            signedPublic, suite: suite, membershipKey: c.membership_key.bytes, context: context)) == nil,
                        "\(item.name) cannot be protected as PublicMessage")
                } else {
                    let signed = signedPublic
                    let message = try PublicMessage.protect(
                        signed, suite: suite, membershipKey: c.membership_key.bytes, context: context)
                    let bytes = try MLSMessage(body: .publicMessage(message)).tlsSerialized()
                    checks.equal(try unprotect(bytes, &receiverTree), signed, "\(item.name) protected as PublicMessage")
                }
                let signed = try AuthenticatedContent.sign(
                    framed, wireFormat: WireFormat.privateMessage, context: context, suite: suite,
                    signaturePrivateKey: c.signature_priv.bytes, confirmationTag: tag)
                let message = try PrivateMessage.protect(
                    signed, suite: suite, secretTree: &senderTree, senderDataSecret: c.sender_data_secret.bytes,
                    paddingLength: 7, using: &generator)
                let bytes = try MLSMessage(body: .privateMessage(message)).tlsSerialized()
                checks.equal(try unprotect(bytes, &receiverTree), signed, "\(item.name) protected as PrivateMessage")
            }
        }
    }

    @Test func tamperedMessagesAreRejected() throws {
        let suite = CipherSuite.x25519AES128GCMSHA256Ed25519
        let key = Array(repeating: UInt8(3), count: 32)
        let context = GroupContext(
            cipherSuite: 1, groupID: [1, 2], epoch: 4, treeHash: [], confirmedTranscriptHash: [], extensions: [])
        let framed = FramedContent(
            groupID: [1, 2], epoch: 4, sender: .member(leafIndex: 0), authenticatedData: [9],
            content: .application([1, 2, 3]))
        let signed = try AuthenticatedContent.sign(
            framed, wireFormat: WireFormat.privateMessage, context: context, suite: suite, signaturePrivateKey: key)
        var senderTree = SecretTree(suite: suite, encryptionSecret: key, leafCount: 2)
        var generator = TestGenerator(seed: 1)
        var message = try PrivateMessage.protect(
            signed, suite: suite, secretTree: &senderTree, senderDataSecret: key, using: &generator)
        message.authenticatedData = [8]
        var receiverTree = SecretTree(suite: suite, encryptionSecret: key, leafCount: 2)
        #expect(throws: MLSError(.decryptionFailed, "")) {
            try message.unprotect(suite: suite, secretTree: &receiverTree, senderDataSecret: key)
        }

        #expect(throws: MLSError(.publicApplicationData, "")) {
            try PublicMessage.protect(signed, suite: suite, membershipKey: key, context: context)
        }
        let proposal = try AuthenticatedContent.sign(
            FramedContent(
                groupID: [1, 2], epoch: 4, sender: .member(leafIndex: 0), authenticatedData: [],
                content: .proposal(.remove(leaf: 1))),
            wireFormat: WireFormat.publicMessage, context: context, suite: suite, signaturePrivateKey: key)
        var pub = try PublicMessage.protect(proposal, suite: suite, membershipKey: key, context: context)
        pub.content.epoch = 5
        #expect(throws: MLSError(.badMembershipTag, "")) {
            try pub.unprotect(suite: suite, membershipKey: key, context: context)
        }
    }
}
