import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

extension NativeSwiftEngine {
    package func processWelcome(wrapperID: EventID, rumor: UnsignedEvent) async throws(EngineError) -> PendingWelcome {
        try persisting { () throws(EngineError) in
            if let stored = welcomes[rumor.id], stored.summary.wrapperID == wrapperID { return stored.summary }
            if profile == .current { return try currentWelcome(wrapperID: wrapperID, rumor: rumor) }
            let parsed: WelcomeRumor.Parsed
            do throws(MarmotError) { parsed = try WelcomeRumor.parse(rumor) } catch {
                if Self.isCurrentWelcomeRumor(rumor) {
                    throw .profileMismatch(
                        ours: .legacy, "the Welcome", "its rumor is framed as the adopted spec's (no MIP-02 encoding tag)")
                }
                throw EngineError(error)
            }
            let suite = MarmotCapabilities.suite
            // The Welcome names each invitee by KeyPackageRef; ours are kept by the same ref.
            guard let own = parsed.welcome.secrets.lazy.compactMap({ self.keyPackages[$0.newMember] }).first ?? anyKeyPackage()
            else {
                if let spent = parsed.welcome.secrets.first(where: { retiredKeyPackages.contains($0.newMember) }) {
                    throw EngineError(
                        .invalidWelcome,
                        "key package \(spent.newMember.hexString) was one-time and is retired: an earlier Welcome used it (issue 30, N3)")
                }
                throw EngineError(.invalidWelcome, "the welcome is for none of our key packages")
            }
            guard parsed.welcome.cipherSuite == suite.id || !MarmotReceiverCheck.welcomeCipherSuite.isOn else {
                throw EngineError(.invalidWelcome, "welcome cipher suite \(parsed.welcome.cipherSuite)")
            }
            let group: Group
            do throws(MLSError) {
                group = try Group(welcome: parsed.welcome, keyPackage: own, judge: Self.bindWelcomer(rumor.pubkey))
            } catch {
                throw EngineError(.invalidWelcome, error.description)
            }
            let data: GroupData
            do throws(MarmotError) { data = try GroupData(extensions: group.context.extensions) } catch {
                if group.context.extensions.contains(where: { $0.type == CurrentProfileCodePoints.appDataDictionary }) {
                    throw .profileMismatch(ours: .legacy, "the Welcome", "its group keeps its state in app_data_dictionary, not 0xF2EE")
                }
                throw EngineError(.invalidWelcome, error.description)
            }
            try checkNoClash(group, data)
            let summary = PendingWelcome(
                id: rumor.id, wrapperID: wrapperID, mlsGroupID: MLSGroupID(hex: group.groupID.hexString), groupName: data.name,
                groupDescription: data.description, groupAdmins: data.admins, groupRelays: data.relays, welcomer: rumor.pubkey,
                memberCount: group.tree.occupiedLeaves.count)
            welcomes[rumor.id] = StoredWelcome(summary: summary, rumor: rumor, group: group, data: data)
            let answer = opened(summary, by: parsed.welcome)
            retireIfUsedUp(parsed.welcome)
            return answer
        }
    }

    /// `summary` naming the key package of ours `welcome` opens with (issue 30, N12: the app core
    /// compares it with the rumor's `e` tag). The stored summary does not keep it, so a restart
    /// changes no byte of the state file.
    func opened(_ summary: PendingWelcome, by welcome: Welcome) -> PendingWelcome {
        var answer = summary
        answer.keyPackageRef = welcome.secrets.first { keyPackages[$0.newMember] != nil }?.newMember.hexString
        return answer
    }

    /// A Welcome is its GroupInfo signer's (issue 30, N3): the rumor's author must be the member
    /// whose leaf signed the GroupInfo, so that nobody else sends it (again) as theirs (MIP-02).
    static func bindWelcomer(_ welcomer: PublicKey) -> GroupChangeJudge {
        { change throws(MLSError) in
            guard case .welcome(let candidate) = change, MarmotReceiverCheck.welcomerIsSigner.isOn else { return }
            let signer = candidate.tree.leaf(candidate.groupInfo.signer).flatMap { ApplicationRumor.identity(of: $0.credential) }
            guard signer == welcomer else {
                throw MLSError(
                    .refusedByCaller,
                    "the welcome rumor's author \(welcomer.hex) is not the GroupInfo signer (leaf \(candidate.groupInfo.signer))")
            }
        }
    }

    /// Retires the private half of the key package a Welcome used, unless it is last-resort
    /// (RFC 9420 §10, MIP-00: a last_resort key package may serve several Welcomes; any other is
    /// used once). Our apps publish last-resort ones; a one-time one (`createKeyPackage(…,
    /// lastResort: false)`) is spent by the first Welcome that opens with it, accepted or not, so
    /// that a replay of that Welcome, or an unsolicited second one, finds nothing to open with.
    func retireIfUsedUp(_ welcome: Welcome) {
        guard MarmotReceiverCheck.keyPackageRetired.isOn,
            let ref = welcome.secrets.first(where: { keyPackages[$0.newMember] != nil })?.newMember,
            let used = keyPackages[ref], !used.keyPackage.extensions.contains(where: { $0.type == ExtensionType.lastResort })
        else { return }
        keyPackages[ref] = nil
        retiredKeyPackages.insert(ref)
    }

    package func acceptWelcome(_ welcomeID: EventID) async throws(EngineError) -> GroupSnapshot {
        try persisting { () throws(EngineError) in
            guard let stored = welcomes.removeValue(forKey: welcomeID) else {
                throw EngineError(.unknownWelcome, "no pending welcome \(welcomeID.hex)")
            }
            var record = GroupRecord(mls: stored.group, data: stored.data, state: .active)
            record.profile = profile
            if let earlier = groups[record.id] {
                // Welcomed back into a group we were removed from: the message history and the
                // record of which events were handled (and which were ours) are the member's own and
                // survive the re-join; failures do not, since events of the new epoch that reached
                // us before this welcome failed only because we were not yet back in.
                record.messages = earlier.messages
                record.processed = earlier.processed
                record.ownEvents = earlier.ownEvents
            }
            groups[record.id] = record
            joinedWelcomes[record.id] = stored.rumor
            return record.snapshot
        }
    }

    /// Whether a kind-444 rumor MIP-02 refuses is framed as the current profile frames it: it
    /// passes the adopted spec's tag rules and lacks MIP-02's `encoding` tag, which every legacy
    /// rumor carries (a legacy rumor broken otherwise stays `invalid_welcome`).
    static func isCurrentWelcomeRumor(_ rumor: UnsignedEvent) -> Bool {
        !rumor.tags.contains(where: { $0.first == "encoding" }) && (try? CurrentWelcomeRumor.parse(rumor)) != nil
    }

    /// With `welcomeForOurKeyPackage` switched off (tests only): the key package MLS then tries,
    /// our first by reference, so that MLS's own answer to a Welcome not sealed to us shows.
    private func anyKeyPackage() -> KeyPackagePrivate? {
        guard !MarmotReceiverCheck.welcomeForOurKeyPackage.isOn else { return nil }
        return keyPackages.keys.sorted { $0.hexString < $1.hexString }.first.flatMap { keyPackages[$0] }
    }

    /// A Welcome must not replace a group we are in (a replayed old Welcome would roll it back,
    /// MIP-02), nor bring a second group onto the `h` of one we hold (it would capture that group's
    /// kind-445 routing, MIP-01 nostr_group_id).
    func checkNoClash(_ group: Group, _ data: GroupData) throws(EngineError) {
        let id = MLSGroupID(hex: group.groupID.hexString)
        if let held = groups[id], held.state == .active, MarmotReceiverCheck.welcomeIntoHeldGroup.isOn {
            throw EngineError(.invalidWelcome, "already a member of group \(id.hex) at epoch \(held.mls.epoch)")
        }
        // A group we left or were removed from is remembered (its record stays, inactive): being
        // welcomed back is a later epoch's Welcome; one of an epoch we already passed is a replay
        // (issue 30, N3).
        if let held = groups[id], held.state != .active, group.epoch <= held.mls.epoch,
            MarmotReceiverCheck.welcomeIntoLeftGroup.isOn
        {
            throw EngineError(
                .invalidWelcome, "we left group \(id.hex) at epoch \(held.mls.epoch); a Welcome of epoch \(group.epoch) is a replay")
        }
        if MarmotReceiverCheck.welcomeOntoHeldH.isOn,
            groups.contains(where: { $0.key != id && $0.value.answers(data.nostrGroupID) })
        {
            throw EngineError(.invalidWelcome, "another group already uses h \(data.nostrGroupIDHex)")
        }
    }

    package func declineWelcome(_ welcomeID: EventID) async throws(EngineError) {
        try persisting { () throws(EngineError) in
            guard welcomes.removeValue(forKey: welcomeID) != nil else {
                throw EngineError(.unknownWelcome, "no pending welcome \(welcomeID.hex)")
            }
        }
    }

    package func pendingWelcomes() async throws(EngineError) -> [PendingWelcome] {
        welcomes.values.map(\.summary).sorted { $0.id < $1.id }
    }
}
