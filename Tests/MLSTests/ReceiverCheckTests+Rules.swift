import Testing

@testable import MLS

/// The attacks of the sender rules, leaf sources, capabilities and the joiner's tree checks
/// (ReceiverCheckBuilders+Rules builds them); ReceiverCheckTests runs them with the others.
extension ReceiverCheckTests {
    /// The attack on `check`, or nil when it is not one of these rules.
    static func ruleAttack(for check: ReceiverCheck) -> Attack? {
        switch check {
        case .proposalSender:
            Attack(name: "alice's member-framed ExternalInit proposal", expected: "mls.invalidProposal") {
                _ = try Builders.bobReceives(
                    .proposal(.externalInit(kemOutput: [UInt8](repeating: 9, count: 32))), flaw: nil, as: .publicMessage)
            }
        case .externalInitInMemberCommit:
            Attack(name: "alice's commit carrying an ExternalInit", expected: "mls.invalidProposal") {
                try bobProcessesCommit(
                    { world in [.externalInit(kemOutput: try kemOutput(&world))] }, senderSkips: [.externalInitInMemberCommit])
            }
        case .externalCommitShape:
            Attack(name: "dave's external commit carrying a GroupContextExtensions", expected: "mls.invalidProposal") {
                try bobProcessesExternalCommit({ world in [try sameExtensions(world)] }, senderSkips: [.externalCommitShape])
            }
        case .externalCommitReferences:
            Attack(name: "dave's external commit covering alice's Remove of carol by reference", expected: "mls.invalidProposal") {
                try bobProcessesExternalCommit({ _ in [] }, byReference: true)
            }
        case .committerRemoved:
            Attack(name: "alice's commit removing alice, with an UpdatePath", expected: "mls.invalidProposal") {
                try bobProcessesCommit({ _ in [.remove(leaf: 0)] }, senderSkips: [.committerRemoved])
            }
        case .keyPackageLeafSource:
            Attack(name: "commit adding a KeyPackage whose leaf has source update, re-signed by its owner", expected: "mls.invalidProposal")
            {
                try bobProcessesCommit(
                    { world in [try resignedKeyPackage(&world, leafSource: .update) { _ in }] }, senderSkips: [.keyPackageLeafSource])
            }
        case .keyPackageInitKey:
            Attack(
                name: "commit adding a KeyPackage whose init_key is its encryption key, re-signed by its owner",
                expected: "mls.invalidProposal"
            ) {
                try bobProcessesCommit(
                    { world in [try resignedKeyPackage(&world) { $0.initKey = $0.leafNode.encryptionKey }] },
                    senderSkips: [.keyPackageInitKey])
            }
        case .updateLeafSource:
            Attack(
                name: "commit of carol's Update (by reference) whose leaf has source commit, signed by her", expected: "mls.invalidProposal"
            ) {
                try bobProcessesCommit(
                    { world in
                        let leaf = try updateLeaf(
                            of: 2, &world, beforeSigning: { $0.source = .commit(parentHash: [UInt8](repeating: 7, count: 32)) })
                        try world.propose(2, .update(leaf))
                        return []
                    }, senderSkips: [.updateLeafSource])
            }
        case .pathLeafSource:
            Attack(name: "self-update whose UpdatePath leaf has source update, signed by alice", expected: "mls.invalidUpdatePath") {
                try bobProcessesCommit({ _ in [] }, flaw: .pathLeafSource)
            }
        case .pathKeysDistinct:
            Attack(name: "self-update whose first UpdatePath node repeats the leaf's encryption key", expected: "mls.invalidUpdatePath") {
                try bobProcessesCommit({ _ in [] }, flaw: .pathKeyRepeated)
            }
        case .pathParentHash:
            Attack(
                name: "self-update whose UpdatePath leaf parent_hash is off by one bit, signed by alice", expected: "mls.invalidParentHash"
            ) {
                try bobProcessesCommit({ _ in [] }, flaw: .pathLeafParentHash)
            }
        case .addCapabilities:
            Attack(name: "commit (no path) adding dave, who lacks the required SelfRemove", expected: "mls.missingCapability") {
                try bobProcessesCommit(
                    { world in
                        try requireSelfRemove(&world)
                        return [.add(world.members[try stranger("dave", &world)].keyPackage.keyPackage)]
                    }, forcePath: false, senderSkips: [.addCapabilities])
            }
        case .addCredentialTypes:
            Attack(name: "commit (no path) adding dave with an x509 credential no member supports", expected: "mls.missingCapability") {
                try bobProcessesCommit(
                    { world in
                        let dave = try stranger(
                            "dave", &world, credential: .x509(certificates: [[1, 2, 3]]),
                            capabilities: memberCapabilities(credentials: [Credential.basicType, Credential.x509Type]))
                        return [.add(world.members[dave].keyPackage.keyPackage)]
                    }, forcePath: false, senderSkips: [.addCredentialTypes])
            }
        case .updateCapabilities:
            Attack(
                name: "commit of carol's Update (by reference) whose leaf drops the required SelfRemove", expected: "mls.missingCapability"
            ) {
                try bobProcessesCommit(
                    { world in
                        try requireSelfRemove(&world)
                        try world.propose(2, .update(try updateLeaf(of: 2, &world, beforeSigning: { $0.capabilities.proposals = [] })))
                        return []
                    }, senderSkips: [.updateCapabilities])
            }
        case .extensionsCapabilities:
            Attack(
                name: "alice's GroupContextExtensions requiring extension 0xFF0A, which only her new leaf lists",
                expected: "mls.missingCapability"
            ) {
                try bobProcessesCommit(
                    { world in [try extensions(world, adding: try requiredCapabilities(extensions: [0xFF0A]))] },
                    flaw: .pathLeafSupports(0xFF0A), senderSkips: [.extensionsCapabilities])
            }
        case .proposalTypeSupport:
            Attack(
                name: "commit of bob's SelfRemove (by reference) received by carol, who does not list SelfRemove",
                expected: "mls.missingCapability"
            ) {
                try carolProcessesSelfRemove(senderSkips: [.proposalTypeSupport])
            }
        case .joinerLeafSignatures:
            Attack(name: "Welcome whose tree holds alice's leaf with its signature off by one bit", expected: "mls.badSignature") {
                _ = try Builders.bobJoins(flaw: .welcomeLeafSignature)
            }
        case .joinerKeyUniqueness:
            Attack(
                name: "Welcome whose tree holds alice's leaf carrying bob's encryption key, re-signed by her", expected: "mls.invalidTree"
            ) {
                _ = try Builders.bobJoins(flaw: .welcomeLeafKeyReuse)
            }
        case .joinerCapabilities:
            Attack(
                name: "Welcome whose tree holds alice's leaf listing no credential type, re-signed by her",
                expected: "mls.missingCapability"
            ) {
                _ = try Builders.bobJoins(flaw: .welcomeLeafCredentials)
            }
        case .joinerOwnLeaf:
            Attack(name: "Welcome whose tree replaces bob's leaf by a stranger's carrying bob's encryption key", expected: "mls.notInvited")
            {
                _ = try Builders.bobJoins(flaw: .welcomeForeignLeaf)
            }
        case .joinerPrivateKeys:
            Attack(name: "Welcome whose path_secret for bob is off by one bit", expected: "mls.invalidUpdatePath") {
                _ = try Builders.bobJoins(flaw: .welcomePathSecret)
            }
        case .groupID:
            Attack(name: "alice's application message naming another group_id, signed and protected as such", expected: "mls.wrongEpoch") {
                _ = try Builders.bobReceives(text, flaw: .groupID(Array("another".utf8)))
            }
        case .publicApplicationData:
            Attack(name: "alice's application message sent as a PublicMessage", expected: "mls.publicApplicationData") {
                try bobReceivesPublicApplication()
            }
        case .commitSender:
            Attack(name: "alice's commit (no path) of an Add framed as the group's external sender", expected: "mls.invalidSender") {
                let service = try serviceKey()
                try bobProcessesCommit(
                    { world in
                        try registerExternalSender(service.publicKey, &world)
                        return [try resignedKeyPackage(&world) { _ in }]
                    }, forcePath: false, flaw: .externalCommitter(key: service.privateKey))
            }
        case .addLifetime:
            Attack(name: "commit adding a KeyPackage whose lifetime ended at 100, processed at 1000", expected: "mls.expired") {
                try bobProcessesCommit(
                    { world in [try resignedKeyPackage(&world, leafSource: .keyPackage(Lifetime(notBefore: 0, notAfter: 100))) { _ in }] },
                    receivedAt: 1_000)
            }
        case .pathDerivedKeys:
            Attack(
                name: "self-update whose last UpdatePath node key is not the one its path secret derives", expected: "mls.invalidUpdatePath"
            ) {
                try bobProcessesCommit({ _ in [] }, flaw: .pathNodeKey)
            }
        case .groupInfoConfirmationTag:
            Attack(name: "Welcome whose GroupInfo confirmation tag is off by one bit, signed over", expected: "mls.badConfirmationTag") {
                _ = try Builders.bobJoins(flaw: .groupInfoConfirmationTag)
            }
        case .groupInfoSuite:
            Attack(name: "Welcome of suite 0x0001 whose GroupInfo names suite 0x0003", expected: "mls.unsupportedCipherSuite") {
                _ = try Builders.bobJoins(flaw: .groupInfoSuite)
            }
        case .removalAfterChecks:
            Attack(name: "alice's commit removing bob whose UpdatePath leaf is signed by a key not hers", expected: "mls.badSignature") {
                try bobProcessesCommit({ _ in [.remove(leaf: 1)] }, flaw: .pathLeafSignature)
            }
        case .treeWidth:
            Attack(
                name: "Welcome whose tree is widened to 65,537 slots (2^15 + 1 leaves, a stranger's last), hashed and signed",
                expected: "mls.treeTooWide"
            ) {
                _ = try Builders.bobJoins(flaw: .oversizedTree(slots: RatchetTreeNodes.maxNodes + 2, hashed: true))
            }
        case .resumptionPSKRetention:
            Attack(
                name: "after 32 self-updates, alice's commit of the resumption PSK of epoch 1, which she kept and bob did not",
                expected: "mls.missingPSK"
            ) {
                try oldResumptionPSKCommit()
            }
        default:
            nil
        }
    }

    /// Alice and bob go through `Group.retainedResumptionPSKs` self-updates of alice; alice (the
    /// sender, not under test) then puts back the epoch-1 PSK and commits it, and bob processes the
    /// commit: he holds that PSK only if he kept more than the cap.
    static func oldResumptionPSKCommit() throws {
        let groupID = Array("psk-retention".utf8)
        var world = try GroupTests.World.alicePlusBob(groupID: groupID)
        let first = try #require(world.members[0].group)
        let epoch = first.epoch
        let kept = try #require(first.resumptionPSKs[epoch])
        for _ in 0..<Int(Group.retainedResumptionPSKs) { try world.commit(0) }
        world.members[0].group?.resumptionPSKs[epoch] = kept
        let psk = PreSharedKeyID(
            kind: .resumption(usage: 1, groupID: groupID, epoch: epoch), nonce: [UInt8](repeating: 0x5A, count: 32))
        try world.commit(0, adding: [.preSharedKey(psk)])
    }
}
