// The rules of RFC 9420 §12.2 for the proposals a commit covers, checked before any is applied.

extension Group {
    /// Checks the list of proposals covered by a commit from `committer`.
    /// - Throws: `.invalidProposal` naming the first rule broken, `.missingCapability` when a
    ///   member does not support a proposal type.
    func validateProposalList(_ proposals: [(Proposal, Sender)], committer: Sender) throws(MLSError) {
        let external = committer == .newMemberCommit
        var touchedLeaves = Set<UInt32>()
        var psks = Set<PreSharedKeyID>()
        var signatureKeys = Set(tree.occupiedLeaves.compactMap { tree.leaf($0)?.signatureKey })
        var encryptionKeys = Set(tree.nodes.compactMap { $0?.encryptionKey })
        var counts: [UInt16: Int] = [:]
        // Per component of the app_data_dictionary: how many AppDataUpdate removes and updates.
        var dataRemoves: [UInt16: Int] = [:]
        var dataUpdates = Set<UInt16>()
        let members = tree.occupiedLeaves.compactMap { tree.leaf($0) }

        for (proposal, sender) in proposals {
            counts[proposal.type, default: 0] += 1
            // The sender rules were checked when each referenced proposal was stored; a proposal
            // by value is the committer's, ruled by the commit rules at the end.
            if !Proposal.Kind.defaults.contains(proposal.type), ReceiverCheck.proposalTypeSupport.isOn {
                guard members.allSatisfy({ $0.capabilities.proposals.contains(proposal.type) }) else {
                    throw MLSError(.missingCapability, "a member does not support proposal type \(proposal.type)")
                }
            }
            switch proposal {
            case .add(let keyPackage):
                let leaf = keyPackage.leafNode
                guard
                    (signatureKeys.insert(leaf.signatureKey).inserted
                        && encryptionKeys.insert(leaf.encryptionKey).inserted) || !ReceiverCheck.addKeyUniqueness.isOn
                else { throw MLSError(.invalidProposal, "Add repeats a signature or encryption key in the group") }
            case .update(let leaf):
                guard case .member(let index) = sender, touchedLeaves.insert(index).inserted || !ReceiverCheck.oneProposalPerLeaf.isOn
                else {
                    throw MLSError(.invalidProposal, "a leaf is updated or removed twice")
                }
                guard encryptionKeys.insert(leaf.encryptionKey).inserted || !ReceiverCheck.updateKeyReuse.isOn else {
                    throw MLSError(.invalidProposal, "Update reuses an encryption key")
                }
            case .remove(let index):
                guard tree.leaf(index) != nil || !ReceiverCheck.removeBlankLeaf.isOn else {
                    throw MLSError(.invalidProposal, "Remove of blank leaf \(index)")
                }
                guard touchedLeaves.insert(index).inserted || !ReceiverCheck.oneProposalPerLeaf.isOn else {
                    throw MLSError(.invalidProposal, "Remove of a leaf touched twice")
                }
            case .selfRemove:
                guard case .member(let index) = sender, touchedLeaves.insert(index).inserted || !ReceiverCheck.oneProposalPerLeaf.isOn
                else {
                    throw MLSError(.invalidProposal, "SelfRemove of a leaf touched twice")
                }
            case .preSharedKey(let id):
                guard psks.insert(id).inserted || !ReceiverCheck.duplicatePSK.isOn else {
                    throw MLSError(.invalidProposal, "PSK listed twice")
                }
                // §8.4: psk_nonce is a fresh value of length KDF.Nh.
                guard id.nonce.count == suite.hashLength || !ReceiverCheck.pskNonceLength.isOn else {
                    throw MLSError(.invalidProposal, "psk_nonce of \(id.nonce.count) bytes, KDF.Nh is \(suite.hashLength)")
                }
                if case .resumption(let usage, _, _) = id.kind, usage != 1, ReceiverCheck.resumptionUsage.isOn {
                    throw MLSError(.invalidProposal, "resumption PSK with usage \(usage) in a regular commit")
                }
            case .appDataUpdate(let update):
                switch update.operation {
                case .update: dataUpdates.insert(update.componentID)
                case .remove: dataRemoves[update.componentID, default: 0] += 1
                }
            case .reInit, .externalInit, .groupContextExtensions:
                continue
            }
        }
        // MLS extensions draft: one commit either removes a component (once) or updates it
        // (any number of times, applied in order), never both.
        for (component, removes) in dataRemoves where removes > 1 || dataUpdates.contains(component) {
            throw MLSError(
                .invalidProposal, "component 0x\(String(component, radix: 16)) is removed twice, or removed and updated, in one commit")
        }
        guard counts[Proposal.Kind.groupContextExtensions, default: 0] <= 1 || !ReceiverCheck.singleGroupContextExtensions.isOn else {
            throw MLSError(.invalidProposal, "more than one GroupContextExtensions")
        }
        if counts[Proposal.Kind.reInit, default: 0] > 0, proposals.count != 1, ReceiverCheck.reInitAlone.isOn {
            throw MLSError(.invalidProposal, "ReInit must be the only proposal")
        }
        if external, ReceiverCheck.externalCommitShape.isOn {
            let allowed: Set<UInt16> = [Proposal.Kind.externalInit, Proposal.Kind.remove, Proposal.Kind.psk]
            guard counts[Proposal.Kind.externalInit] == 1, counts[Proposal.Kind.remove, default: 0] <= 1,
                counts.keys.allSatisfy(allowed.contains)
            else { throw MLSError(.invalidProposal, "external commit proposals must be one ExternalInit, PSKs, one Remove") }
        } else if !external, counts[Proposal.Kind.externalInit] != nil, ReceiverCheck.externalInitInMemberCommit.isOn {
            throw MLSError(.invalidProposal, "ExternalInit in a member's commit")
        }
    }

    /// Which senders may send which proposals as proposal messages (§12.1, §12.1.5, §12.1.8).
    static func requireSender(_ sender: Sender, mayPropose proposal: Proposal) throws(MLSError) {
        switch (sender, proposal) {
        case (.member, .externalInit):
            throw MLSError(.invalidProposal, "ExternalInit from a member: it belongs in an external commit")
        case (.member, _):
            return
        case (.newMemberProposal, .add):
            return
        case (.external, .add), (.external, .remove), (.external, .preSharedKey), (.external, .reInit),
            (.external, .groupContextExtensions), (.external, .appDataUpdate):
            return
        default:
            throw MLSError(.invalidProposal, "sender may not propose type \(proposal.type)")
        }
    }
}
