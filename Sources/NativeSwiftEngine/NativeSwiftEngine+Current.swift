import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

// The current profile's side of the operations that make something (docs/native-engine.md,
// "Current profile"): key packages with an identity proof in the leaf and the last-resort marker,
// groups whose state lives in app_data_dictionary components, changes as app_data_update proposals.

/// What our current-profile leaves and groups declare (MDK v0.11.0's engine defaults, plus SelfRemove).
enum CurrentProfile {
    /// Components our leaves support: profile, admin policy, routing, identity proof, lifecycle.
    static let supportedComponents: [AppComponentID] = [
        .groupProfile, .adminPolicy, .nostrRouting, .accountIdentityProof, .groupLifecycle,
    ]
    /// Components every group we create requires.
    static let requiredComponents: [AppComponentID] = [
        .groupProfile, .adminPolicy, .nostrRouting, .accountIdentityProof, .groupLifecycle,
    ]
    /// Leaf capabilities: app_data_dictionary; app_data_update and SelfRemove.
    static let leafCapabilities = Capabilities(
        extensions: [CurrentProfileCodePoints.appDataDictionary],
        proposals: [CurrentProfileCodePoints.appDataUpdate, Proposal.Kind.selfRemove])
    /// What a group requires of every member's leaf: app_data_dictionary and app_data_update.
    static let requiredCapabilities = RequiredCapabilities(
        extensionTypes: [CurrentProfileCodePoints.appDataDictionary], proposalTypes: [CurrentProfileCodePoints.appDataUpdate],
        credentialTypes: [])
}

extension NativeSwiftEngine {
    /// Gives the engine an account's key: the current profile signs an account identity proof
    /// (0x8009, the kind-450 template) for every leaf it creates, which only the account can.
    package func holdAccountKey(_ keypair: Keypair) {
        accountKeys[keypair.publicKey] = keypair
    }

    func accountKey(_ key: PublicKey) throws(EngineError) -> Keypair {
        guard let keypair = accountKeys[key] else {
            throw EngineError(
                .invalidInput,
                "the current profile signs an account identity proof (0x8009) for every leaf; this engine does not hold the key of \(key.hex)"
            )
        }
        return keypair
    }

    /// A last-resort current-profile KeyPackage for `identity`: its leaf proves the account (0x8009)
    /// and lists the components we support; the KeyPackage carries the empty 0x0004 marker.
    func newCurrentKeyPackage(for identity: PublicKey) throws(EngineError) -> KeyPackagePrivate {
        let account = try accountKey(identity)
        let suite = MarmotCapabilities.suite
        let now = clock()
        let lifetime = Lifetime(
            notBefore: now > Self.keyPackageBackdate ? now - Self.keyPackageBackdate : 0,
            notAfter: now.addingReportingOverflow(Self.keyPackageLifetime).overflow ? .max : now + Self.keyPackageLifetime)
        let signature = try mlsStep { () throws(MLSError) in try suite.generateSignatureKeyPair(using: &random) }
        let leafExtension = try marmotStep { () throws(MarmotError) in
            try LeafComponents.leafExtension(
                account: account, signatureKey: signature.publicKey, suite: suite.id, supported: CurrentProfile.supportedComponents,
                createdAt: max(now, 1), using: &random)
        }
        return try mlsStep { () throws(MLSError) in
            try KeyPackagePrivate.generate(
                suite: suite, credential: .basic(identity: identity.bytes), signatureKeyPair: signature,
                capabilities: CurrentProfile.leafCapabilities, lifetime: lifetime, leafExtensions: [leafExtension],
                extensions: [LeafComponents.lastResortExtension], using: &random)
        }
    }

    /// The GroupContext extensions of a new current-profile group holding `data`.
    func currentGroupExtensions(_ data: GroupData) throws(EngineError) -> [Extension] {
        try marmotStep { () throws(MarmotError) in
            let dictionary = try AppDataDictionary(marmotEntries: [
                ComponentData(id: .appComponents, data: AppComponents(CurrentProfile.requiredComponents).encoded()),
                ComponentData(id: .groupProfile, data: GroupProfile(name: data.name, description: data.description).encoded()),
                ComponentData(id: .adminPolicy, data: try AdminList(admins: data.admins.map(\.bytes)).encoded()),
                ComponentData(id: .nostrRouting, data: try NostrRouting(nostrGroupID: data.nostrGroupID, relays: data.relays).encoded()),
                ComponentData(id: .groupLifecycle, data: GroupLifecycle.active.encoded()),
            ])
            return [
                Extension(type: ExtensionType.requiredCapabilities, data: try tlsEncoded(CurrentProfile.requiredCapabilities)),
                dictionary.mlsExtension,
            ]
        }
    }

    /// The app_data_update proposals that take `record`'s group data to `data`: one per component
    /// that changes (0x8001 name and description, 0x8002 image, 0x8003 admins, 0x8004 relays).
    func currentUpdates(from old: GroupData, to data: GroupData) throws(EngineError) -> [Proposal] {
        try marmotStep { () throws(MarmotError) in
            var proposals: [Proposal] = []
            if data.name != old.name || data.description != old.description {
                proposals.append(Self.update(.groupProfile, GroupProfile(name: data.name, description: data.description).encoded()))
            }
            if data.admins != old.admins {
                proposals.append(Self.update(.adminPolicy, try AdminList(admins: data.admins.map(\.bytes)).encoded()))
            }
            if let image = Self.blossomImage(data), image != Self.blossomImage(old) {
                proposals.append(Self.update(.groupBlossomImage, GroupBlossomImage(image: image).encoded()))
            }
            if data.relays != old.relays || data.nostrGroupID != old.nostrGroupID {
                proposals.append(
                    Self.update(.nostrRouting, try NostrRouting(nostrGroupID: data.nostrGroupID, relays: data.relays).encoded()))
            }
            return proposals
        }
    }

    /// The 0x8002 image `data` names, if it names a whole one.
    static func blossomImage(_ data: GroupData) -> GroupBlossomImage.Image? {
        guard let hash = data.imageHash, let key = data.imageKey, let nonce = data.imageNonce, let uploadKey = data.imageUploadKey,
            let mediaType = data.imageMediaType
        else { return nil }
        return GroupBlossomImage.Image(hash: hash, key: key, nonce: nonce, uploadKey: uploadKey, mediaType: mediaType)
    }

    static func update(_ id: AppComponentID, _ data: [UInt8]) -> Proposal {
        .appDataUpdate(MLS.AppDataUpdate(componentID: id.rawValue, operation: .update(data)))
    }

    /// The GroupData of `extensions` as `profile` keeps it.
    static func groupData(_ extensions: [Extension], _ profile: MarmotProfile) throws(MarmotError) -> GroupData {
        switch profile {
        case .legacy: try GroupData(extensions: extensions)
        case .current: try GroupData.current(extensions)
        }
    }

    /// The judge MLS consults for `profile`'s groups.
    static func judge(_ profile: MarmotProfile) -> GroupChangeJudge {
        switch profile {
        case .legacy: acceptEveryChange
        case .current: CurrentRules.judgeChange
        }
    }
}

extension NativeSwiftEngine {
    /// The draft of a current-profile kind-30443 event: content base64(MLSMessage(KeyPackage)),
    /// the tags of transports/nostr.md (no relays tag: key packages go to the account's kind-10002
    /// relays, which the publisher knows), no legacy copy.
    func currentKeyPackageDraft(for publicKey: PublicKey) throws(EngineError) -> KeyPackageDraft {
        let own = try newCurrentKeyPackage(for: publicKey)
        let reference = try mlsStep { () throws(MLSError) in try own.keyPackage.reference(suite: MarmotCapabilities.suite) }
        let slot = random.bytes(32)
        let tags = try marmotStep { () throws(MarmotError) in
            try CurrentKeyPackageEvent.tags(keyPackage: own.keyPackage, reference: reference, slot: slot)
        }
        let bytes = try marmotStep { () throws(MarmotError) in try tlsEncoded(MLSMessage(body: .keyPackage(own.keyPackage))) }
        keyPackages[reference] = own
        return KeyPackageDraft(
            content: Base64Content.encode(bytes), tags: tags, legacyTags: [], dTag: slot.hexString, keyPackageRef: reference.hexString)
    }

    /// A current-profile key-package event checked as an inviter checks it; a legacy one is
    /// `profile_mismatch` (the contact must upgrade).
    func currentValidated(_ event: Event) throws(EngineError) -> CurrentKeyPackageEvent.Validated {
        let now = clock()
        do { return try CurrentKeyPackageEvent.validate(event, now: now) } catch {
            if error.code == .profileMismatch { throw .profileMismatch(ours: .current, "the key package", error.reason) }
            throw EngineError(error)
        }
    }

    func currentCreateGroup(_ request: GroupCreation) throws(EngineError) -> CreatedGroup {
        var invitees: [CurrentKeyPackageEvent.Validated] = []
        for event in request.keyPackages { invitees.append(try currentValidated(event)) }
        let creator = try newCurrentKeyPackage(for: request.creator)
        let groupID = random.bytes(16)
        let requested = GroupData(
            nostrGroupID: random.bytes(32), name: request.name, description: request.description, admins: request.admins,
            relays: request.relays)
        let extensions = try currentGroupExtensions(requested)
        var group = try mlsStep { () throws(MLSError) in
            try Group(creating: groupID, creator: creator, extensions: extensions, using: &random)
        }
        let data = try marmotStep { () throws(MarmotError) in try GroupData.current(group.context.extensions) }
        var record = GroupRecord(mls: group, data: data, state: .active)
        record.profile = .current
        var rumors: [UnsignedEvent] = []
        if !invitees.isEmpty {
            // The initial Add commit is merged locally and never published; only the welcomes go out.
            let now = clock()
            let created = try mlsStep { () throws(MLSError) in
                try group.commit(
                    adding: invitees.map { .add($0.keyPackage) }, as: .privateMessage, now: now, judge: CurrentRules.judgeChange,
                    using: &random)
            }
            try marmotStep { () throws(MarmotError) in try record.advance(to: created.next) }
            record.pastEpochs = [:]
            rumors = try currentWelcomeRumors(created.welcome, for: invitees.map(\.event.id), from: request.creator, relays: data.relays)
            rememberSent(rumors, to: invitees.map(\.event.pubkey), in: record.id)
        }
        groups[record.id] = record
        return CreatedGroup(group: record.snapshot, welcomeRumors: rumors)
    }

    /// One kind-444 rumor per invitee (the `e` tag names its key-package event), all carrying the same Welcome.
    func currentWelcomeRumors(
        _ welcome: Welcome?, for keyPackageEvents: [EventID], from inviter: PublicKey, relays: [String]
    ) throws(EngineError) -> [UnsignedEvent] {
        guard let welcome, !keyPackageEvents.isEmpty else { return [] }
        let now = clock()
        var rumors: [UnsignedEvent] = []
        for event in keyPackageEvents {
            rumors.append(
                try marmotStep { () throws(MarmotError) in
                    try CurrentWelcomeRumor.make(welcome: welcome, inviter: inviter, createdAt: now, keyPackageEvent: event, relays: relays)
                })
        }
        return rumors
    }

    /// protocol-core/joining.md: a Welcome joins only a current-profile group (every leaf proven,
    /// the inviter an admin, the required components present); a legacy one, or a mix of both, is
    /// `profile_mismatch`. Nothing is kept of a refused Welcome.
    func currentWelcome(wrapperID: EventID, rumor: UnsignedEvent) throws(EngineError) -> PendingWelcome {
        let welcome: Welcome
        do { welcome = try CurrentWelcomeRumor.parse(rumor).welcome } catch {
            if (try? WelcomeRumor.parse(rumor)) != nil {
                throw .profileMismatch(ours: .current, "the Welcome", "its rumor is framed as MIP-02's")
            }
            throw EngineError(.invalidWelcome, "\(error.code.name): \(error.reason)")
        }
        guard welcome.cipherSuite == MarmotCapabilities.suite.id else {
            throw EngineError(.invalidWelcome, "welcome cipher suite \(welcome.cipherSuite)")
        }
        guard let own = welcome.secrets.lazy.compactMap({ self.keyPackages[$0.newMember] }).first else {
            throw EngineError(.invalidWelcome, "the welcome is for none of our key packages")
        }
        let group: Group
        // The rumor's author must be the GroupInfo signer (issue 30, N3), as in the legacy profile;
        // then the current rules (every leaf proven, the inviter an admin).
        let welcomer = Self.bindWelcomer(rumor.pubkey)
        let judge: GroupChangeJudge = { change throws(MLSError) in
            try welcomer(change)
            try CurrentRules.judgeChange(change)
        }
        do { group = try Group(welcome: welcome, keyPackage: own, judge: judge) } catch {
            if error.code == .refusedByCaller, error.reason.hasPrefix(MarmotError.Code.profileMismatch.name) {
                throw .profileMismatch(ours: .current, "the Welcome", error.reason)
            }
            throw EngineError(.invalidWelcome, "\(error.code.name): \(error.reason)")
        }
        let data: GroupData
        do { data = try GroupData.current(group.context.extensions) } catch {
            throw EngineError(.invalidWelcome, "\(error.code.name): \(error.reason)")
        }
        try checkNoClash(group, data)
        let summary = PendingWelcome(
            id: rumor.id, wrapperID: wrapperID, mlsGroupID: MLSGroupID(hex: group.groupID.hexString), groupName: data.name,
            groupDescription: data.description, groupAdmins: data.admins, groupRelays: data.relays, welcomer: rumor.pubkey,
            memberCount: group.tree.occupiedLeaves.count)
        welcomes[rumor.id] = StoredWelcome(summary: summary, rumor: rumor, group: group, data: data)
        return opened(summary, by: welcome)
    }
}

extension EngineError {
    /// A key package or Welcome of the other profile: the reason names both, so that an app can
    /// tell its user the contact must upgrade (or is on a newer client).
    static func profileMismatch(ours: MarmotProfile, _ what: String, _ detail: String) -> EngineError {
        let theirs: MarmotProfile = ours == .current ? .legacy : .current
        let names: [MarmotProfile: String] = [
            .legacy: "the legacy profile (MIP-00…03, MDK 0.8.0)", .current: "the current profile (the adopted Marmot specification)",
        ]
        return EngineError(
            .profileMismatch, "\(what) is of \(names[theirs]!), this member speaks \(names[ours]!): \(detail)")
    }
}
