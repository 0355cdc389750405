import EngineInterface
import MLS
import Marmot
import Nostr

// The hostile member on a current-profile group (issue 28; docs/current-profile.md, "Hostile
// members"): the same attacks as on a legacy group, framed as the adopted spec frames changes
// (app_data_update proposals on the app_data_dictionary, 0x8009-proven leaves, kind-30443 key
// packages, kind-444 rumors without MIP-02's tags), plus the current profile's own forgeries
// (libmarmot's openmls_forgeries classes): broken identity proofs and group states that break
// the admin policy (0x8003) or drop a required component. Each is valid up to the one rule it breaks.

/// How a forged leaf's account identity proof (0x8009) is broken.
enum LeafProofFlaw: Sendable, Hashable {
    /// app_components lists 0x8009, the dictionary holds no 0x8009 entry.
    case missing
    /// The leaf's account signed the proof; one bit of the BIP-340 signature is then flipped.
    case tampered
    /// Another account (a fresh key) signed a valid proof over this leaf's signature key.
    case otherAccount
}

extension NativeSwiftEngine {
    /// The invitee's KeyPackage from its event, checked as an inviter of our profile checks it.
    func inviteeKeyPackage(_ event: Event) throws(EngineError) -> KeyPackage {
        switch profile {
        case .legacy: try validated(event).keyPackage
        case .current: try currentValidated(event).keyPackage
        }
    }

    /// A leaf `app_data_dictionary` for `account`'s leaf whose signature key is `signatureKey`,
    /// listing the components we support, its 0x8009 proof broken as `flaw` says.
    func forgedLeafDictionary(account: Keypair, signatureKey: [UInt8], flaw: LeafProofFlaw) throws(EngineError) -> Extension {
        let now = max(clock(), 1)
        let suite = MarmotCapabilities.suite.id
        let honest = try marmotStep { () throws(MarmotError) in
            try LeafComponents.leafExtension(
                account: account, signatureKey: signatureKey, suite: suite, supported: CurrentProfile.supportedComponents,
                createdAt: now, using: &random)
        }
        var dictionary = try marmotStep { () throws(MarmotError) in try AppDataDictionary(marmotBytes: honest.data) }
        let proofID = AccountIdentityProof.component.rawValue
        switch flaw {
        case .missing:
            dictionary.set(proofID, to: nil)
        case .tampered:
            guard var proof = dictionary[proofID], let last = proof.indices.last else {
                throw EngineError(.engineError, "our own leaf dictionary has no 0x8009 entry")
            }
            proof[last] ^= 0x01  // the signature's last byte: the proof still decodes, it no longer verifies
            dictionary.set(proofID, to: proof)
        case .otherAccount:
            let stranger = Keypair.generate(using: &random)
            let proof = try marmotStep { () throws(MarmotError) in
                try AccountIdentityProof.create(
                    account: stranger, createdAt: now, suite: suite, signatureKey: signatureKey, using: &random)
            }
            dictionary.set(proofID, to: proof.encoded())
        }
        return dictionary.mlsExtension
    }

    /// A current-profile KeyPackage whose leaf names `identity`, its proof signed by `account`
    /// (the same account unless an impostor's) and broken as `flaw` says (nil: an honest proof).
    func forgedCurrentKeyPackage(identity: PublicKey, account: Keypair, flaw: LeafProofFlaw?) throws(EngineError)
        -> KeyPackagePrivate
    {
        let suite = MarmotCapabilities.suite
        let now = clock()
        let lifetime = Lifetime(
            notBefore: now > Self.keyPackageBackdate ? now - Self.keyPackageBackdate : 0,
            notAfter: now.addingReportingOverflow(Self.keyPackageLifetime).overflow ? .max : now + Self.keyPackageLifetime)
        let signature = try mlsStep { () throws(MLSError) in try suite.generateSignatureKeyPair(using: &random) }
        let leafExtension: Extension
        if let flaw {
            leafExtension = try forgedLeafDictionary(account: account, signatureKey: signature.publicKey, flaw: flaw)
        } else {
            leafExtension = try marmotStep { () throws(MarmotError) in
                try LeafComponents.leafExtension(
                    account: account, signatureKey: signature.publicKey, suite: suite.id,
                    supported: CurrentProfile.supportedComponents, createdAt: max(now, 1), using: &random)
            }
        }
        return try mlsStep { () throws(MLSError) in
            try KeyPackagePrivate.generate(
                suite: suite, credential: .basic(identity: identity.bytes), signatureKeyPair: signature,
                capabilities: CurrentProfile.leafCapabilities, lifetime: lifetime, leafExtensions: [leafExtension],
                extensions: [LeafComponents.lastResortExtension], using: &random)
        }
    }

    /// A self-update commit whose UpdatePath leaf carries our leaf's extensions with the
    /// app_data_dictionary replaced by one whose proof is broken as `flaw` says.
    func leafProofCommit(_ flaw: LeafProofFlaw, _ request: ForgeRequest, in record: inout GroupRecord, now: UInt64)
        throws(EngineError) -> Event
    {
        try requireCurrent(record, request.attack)
        guard let ownLeaf = record.mls.tree.leaf(record.mls.leafIndex) else { throw EngineError(.engineError, "our leaf is blank") }
        let dictionary = try forgedLeafDictionary(
            account: try accountKey(request.sender), signatureKey: ownLeaf.signatureKey, flaw: flaw)
        let extensions =
            ownLeaf.extensions.filter { $0.type != CurrentProfileCodePoints.appDataDictionary } + [dictionary]
        return try forgedCommit([], flaw: .pathLeafExtensions(extensions), in: &record, now: now)
    }

    /// The current-profile Welcome attacks: the target invited into a fresh group of ours (admin:
    /// us), reusing `lookalike`'s `h`, name and relays when given, the commit or Welcome broken as
    /// `flaw` says, our own leaf's proof as `creatorProof` says (nil: honest).
    func currentFakeGroupWelcome(
        _ request: ForgeRequest, from record: GroupRecord, lookalike: Bool, flaw: CommitFlaw?, creatorProof: LeafProofFlaw?
    ) throws(EngineError) -> [UnsignedEvent] {
        try requireCurrent(record, request.attack)
        guard let event = request.targetKeyPackage else { throw EngineError(.invalidInput, "the attack needs the target's key package") }
        let invitee = try currentValidated(event)
        let creator = try forgedCurrentKeyPackage(
            identity: request.sender, account: try accountKey(request.sender), flaw: creatorProof)
        let data = GroupData(
            nostrGroupID: lookalike ? record.data.nostrGroupID : random.bytes(32), name: lookalike ? record.data.name : "Look-alike",
            description: "", admins: [request.sender], relays: record.data.relays)
        let extensions = try currentGroupExtensions(data)
        let now = clock()
        let created = try mlsStep { () throws(MLSError) in
            var group = try Group(creating: random.bytes(16), creator: creator, extensions: extensions, using: &random)
            return try group.uncheckedCommit(adding: [.add(invitee.keyPackage)], flaw: flaw, now: now, using: &random)
        }
        return try currentWelcomeRumors(created.welcome, for: [event.id], from: request.sender, relays: data.relays)
    }

    /// A commit (by us, an admin for these attacks to reach the state rules) of one
    /// app_data_update whose result breaks the current profile's group state.
    func stateForgery(_ attack: HostileAttack, _ request: ForgeRequest, in record: inout GroupRecord, now: UInt64)
        throws(EngineError) -> Event
    {
        try requireCurrent(record, attack)
        let update: MLS.AppDataUpdate
        switch attack {
        case .dropAdminPolicy:
            update = MLS.AppDataUpdate(componentID: AppComponentID.adminPolicy.rawValue, operation: .remove)
        case .dropLifecycle:
            update = MLS.AppDataUpdate(componentID: AppComponentID.groupLifecycle.rawValue, operation: .remove)
        case .dropComponentList:
            update = MLS.AppDataUpdate(componentID: AppComponentID.appComponents.rawValue, operation: .remove)
        case .emptyAdminList:
            // An opaque<V> of no bytes is its one-byte length 0 (RFC 9420 §2.1.2): an admin list
            // of nobody, which AdminList itself refuses to build.
            update = MLS.AppDataUpdate(componentID: AppComponentID.adminPolicy.rawValue, operation: .update([0]))
        default:
            // adminNotMember: us and a fresh account that holds no leaf, strictly ascending.
            let stranger = Keypair.generate(using: &random).publicKey.bytes
            let admins = [request.sender.bytes, stranger].sorted { $0.lexicographicallyPrecedes($1) }
            let list = try marmotStep { () throws(MarmotError) in try AdminList(admins: admins) }
            update = MLS.AppDataUpdate(componentID: AppComponentID.adminPolicy.rawValue, operation: .update(list.encoded()))
        }
        return try forgedCommit([.appDataUpdate(update)], in: &record, now: now)
    }

    /// An Add commit (by us) of a fresh account's key package whose proof is broken as `flaw` says.
    func addForgedLeafCommit(_ flaw: LeafProofFlaw, _ request: ForgeRequest, in record: inout GroupRecord, now: UInt64)
        throws(EngineError) -> Event
    {
        try requireCurrent(record, request.attack)
        let stranger = Keypair.generate(using: &random)
        let keyPackage = try forgedCurrentKeyPackage(identity: stranger.publicKey, account: stranger, flaw: flaw)
        return try forgedCommit([.add(keyPackage.keyPackage)], in: &record, now: now)
    }

    func requireCurrent(_ record: GroupRecord, _ attack: HostileAttack) throws(EngineError) {
        guard record.profile == .current else {
            throw EngineError(.invalidInput, "attack \(attack.rawValue) needs a current-profile group (app_data_dictionary, 0x8009)")
        }
    }
}
