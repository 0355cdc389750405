import ErrorCodes
import TLSCodec

// struct {
//     ProtocolVersion version = mls10;
//     WireFormat wire_format;
//     FramedContent content;
//     select (FramedContentTBS.content.sender.sender_type) {
//         case member:
//         case new_member_commit:
//             GroupContext context;
//         case external:
//         case new_member_proposal:
//             struct{};
//     };
// } FramedContentTBS;
//
// struct {
//     FramedContentTBS content_tbs;
//     FramedContentAuthData auth;
// } AuthenticatedContentTBM;

extension MLSError.Code {
    /// A PublicMessage's membership tag did not match.
    public static let badMembershipTag = Self("mls.badMembershipTag")
    /// Application data in a PublicMessage, which §6.2 forbids.
    public static let publicApplicationData = Self("mls.publicApplicationData")
}

extension FramedContent {
    /// FramedContentTBS for this content sent as `wireFormat` in `context`.
    public func toBeSigned(wireFormat: UInt16, context: GroupContext) -> [UInt8] {
        var w = TLSWriter()
        w.write(ProtocolVersion.mls10)
        w.write(wireFormat)
        w.write(self)
        switch sender {
        case .member, .newMemberCommit: w.write(context)
        case .external, .newMemberProposal: break
        }
        return w.bytes
    }
}

extension AuthenticatedContent {
    /// Signs `content` for sending as `wireFormat`; the confirmation tag is added by the caller for commits.
    public static func sign(
        _ content: FramedContent, wireFormat: UInt16, context: GroupContext, suite: CipherSuite,
        signaturePrivateKey: [UInt8], confirmationTag: [UInt8]? = nil
    ) throws(MLSError) -> AuthenticatedContent {
        let signature = try suite.signWithLabel(
            privateKey: signaturePrivateKey, label: "FramedContentTBS",
            content: content.toBeSigned(wireFormat: wireFormat, context: context))
        return AuthenticatedContent(
            wireFormat: wireFormat, content: content,
            auth: FramedContentAuthData(signature: signature, confirmationTag: confirmationTag))
    }

    /// Checks the signature under the sender's `publicKey`.
    /// - Throws: `.badSignature`.
    public func verifySignature(suite: CipherSuite, publicKey: [UInt8], context: GroupContext) throws(MLSError) {
        guard
            suite.verifyWithLabel(
                publicKey: publicKey, label: "FramedContentTBS",
                content: content.toBeSigned(wireFormat: wireFormat, context: context), signature: auth.signature)
        else { throw MLSError(.badSignature, "FramedContentTBS signature does not verify") }
    }

    /// MAC(membership_key, AuthenticatedContentTBM).
    public func membershipTag(suite: CipherSuite, membershipKey: [UInt8], context: GroupContext) -> [UInt8] {
        var w = TLSWriter()
        w.writeBytes(content.toBeSigned(wireFormat: wireFormat, context: context))
        auth.encode(to: &w)
        return suite.mac(key: membershipKey, data: w.bytes)
    }
}

extension PublicMessage {
    /// Wraps signed content as a PublicMessage, adding the membership tag for member senders.
    /// - Throws: `.publicApplicationData` for application content, which must be encrypted.
    public static func protect(
        _ content: AuthenticatedContent, suite: CipherSuite, membershipKey: [UInt8], context: GroupContext
    ) throws(MLSError) -> PublicMessage {
        if case .application = content.content.content, ReceiverCheck.publicApplicationData.isOn {
            throw MLSError(.publicApplicationData, "application data must be sent as a PrivateMessage")
        }
        var tag: [UInt8]?
        if case .member = content.content.sender {
            tag = content.membershipTag(suite: suite, membershipKey: membershipKey, context: context)
        }
        return PublicMessage(content: content.content, auth: content.auth, membershipTag: tag)
    }

    /// Checks the membership tag (for member senders) and returns the signed content; the caller
    /// verifies the signature once it knows the sender's key.
    /// - Throws: `.badMembershipTag`, `.publicApplicationData`.
    public func unprotect(
        suite: CipherSuite, membershipKey: [UInt8], context: GroupContext
    ) throws(MLSError) -> AuthenticatedContent {
        let content = authenticatedContent
        if case .application = content.content.content, ReceiverCheck.publicApplicationData.isOn {
            throw MLSError(.publicApplicationData, "application data in a PublicMessage")
        }
        if case .member = self.content.sender, ReceiverCheck.membershipTag.isOn {
            let expected = content.membershipTag(suite: suite, membershipKey: membershipKey, context: context)
            guard let membershipTag, constantTimeEqual(membershipTag, expected) else {
                throw MLSError(.badMembershipTag, "membership tag does not match")
            }
        }
        return content
    }
}

/// Compares MACs without an early exit.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var diff: UInt8 = 0
    for (x, y) in zip(a, b) { diff |= x ^ y }
    return diff == 0
}
