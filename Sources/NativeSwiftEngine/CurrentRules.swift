import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

// The current profile's group rules, as the judge MLS consults before it accepts a Welcome, a
// proposal or a commit (app-components/README.md "Authorization Evaluation", admin-policy-v1.md,
// group-lifecycle-v1.md, account-identity-proof-v2.md, protocol-core/joining.md). MLS has checked
// everything RFC 9420 asks by then; these are Marmot's rules, judged against the candidate's
// parent state (authorization) and its result (the next GroupContext and tree). A refusal names
// its rule and, where one component is at fault, the component id, so that an app (and the
// MDK011Vectors suite) can tell why.
enum CurrentRules {
    /// A refusal of ours, carried through MLS (whose judge may throw only MLS errors) with its reason.
    static func refuse(_ reason: String) -> MLSError { MLSError(.refusedByCaller, reason) }

    static func refuse(_ error: MarmotError) -> MLSError { MLSError(.refusedByCaller, "\(error.code.name): \(error.reason)") }

    /// How a refusal of a non-admin's proposal begins (the receiver ignores such a proposal).
    static let nonAdminProposal = "only admins may propose"

    /// The judge of a member whose group is of the current profile.
    static func judgeChange(_ change: GroupChange) throws(MLSError) {
        switch change {
        case .welcome(let welcome): try judge(welcome)
        case .proposal(let proposal): try judge(proposal)
        case .commit(let commit): try judge(commit)
        }
    }

    // MARK: - State read from a GroupContext

    /// The current-profile components of `extensions`, every group-level rule checked.
    static func components(_ extensions: [Extension]) throws(MLSError) -> GroupComponents {
        do throws(MarmotError) { return try GroupComponents(extensions: extensions) } catch { throw refuse(error) }
    }

    /// The admin accounts of a state.
    static func admins(_ components: GroupComponents) -> Set<[UInt8]> { Set(components.admins?.admins ?? []) }

    /// The account a leaf's basic credential names.
    static func account(_ leaf: LeafNode?) -> [UInt8]? {
        guard let leaf, case .basic(let identity) = leaf.credential else { return nil }
        return identity
    }

    /// Every rule of account-identity-proof-v2.md for one leaf, and that it supports every
    /// component the group requires.
    static func requireLeaf(_ leaf: LeafNode, suite: UInt16, requires required: [AppComponentID], _ what: String)
        throws(MLSError)
    {
        let checked: LeafComponents
        do throws(MarmotError) { checked = try LeafComponents(verifying: leaf, suite: suite) } catch {
            throw refuse("\(what): \(error.code.name): \(error.reason)")
        }
        for id in required where !checked.supported.contains(id) {
            throw refuse("\(what) does not support the required component \(id)")
        }
    }

    // MARK: - Welcome (protocol-core/joining.md)

    /// A Welcome joins only a current-profile group whose every leaf carries a valid identity proof
    /// and supports what the group requires, sent by an admin of that group.
    static func judge(_ welcome: WelcomeCandidate) throws(MLSError) {
        let context = welcome.groupInfo.groupContext
        let state = try components(context.extensions)
        for index in welcome.tree.occupiedLeaves {
            guard let leaf = welcome.tree.leaf(index) else { continue }
            try requireLeaf(leaf, suite: context.cipherSuite, requires: state.required.ids, "leaf \(index)")
        }
        guard let inviter = account(welcome.tree.leaf(welcome.groupInfo.signer)), admins(state).contains(inviter) else {
            throw refuse("the inviter (leaf \(welcome.groupInfo.signer)) is not an admin of the group (0x8003)")
        }
        try requireAdminsAreMembers(state, tree: welcome.tree)
    }

    // MARK: - Proposals

    /// A proposal judged in its source epoch: group-state changes and changes to other members are
    /// an admin's; an admin does not SelfRemove (it self-demotes first).
    static func judge(_ proposal: ProposalCandidate) throws(MLSError) {
        let state = try components(proposal.context.extensions)
        guard case .member(let leaf) = proposal.sender else {
            throw refuse("a proposal from outside the group (\(proposal.sender)) is not accepted in the current profile")
        }
        let isAdmin = account(proposal.tree.leaf(leaf)).map(admins(state).contains) ?? false
        switch proposal.proposal {
        case .appDataUpdate(let update):
            guard isAdmin else { throw refuse("\(nonAdminProposal) app_data_update (\(hex(update.componentID))), 0x8003") }
            guard update.componentID != AppComponentID.groupLifecycle.rawValue else {
                throw refuse("the lifecycle (0x800c) changes only by value, in its committer's commit")
            }
            try requireValidUpdate(update)
        case .add, .remove:
            guard isAdmin else { throw refuse("\(nonAdminProposal) to add or remove members (0x8003)") }
        case .selfRemove:
            guard !isAdmin else { throw refuse("an admin must self-demote before leaving (0x8003)") }
        case .groupContextExtensions:
            throw refuse("group_context_extensions proposals are not used in the current profile: app_data_update is")
        default:
            throw refuse("proposal type \(proposal.proposal.type) is not accepted in the current profile")
        }
    }

    /// An AppDataUpdate's data decodes as its component's state (every v1 update is a full state).
    static func requireValidUpdate(_ update: MLS.AppDataUpdate) throws(MLSError) {
        guard case .update(let data) = update.operation else { return }
        do throws(MarmotError) { _ = try GroupComponent(id: AppComponentID(update.componentID), data: data) } catch {
            throw refuse("component \(hex(update.componentID)): \(error.code.name): \(error.reason)")
        }
    }

    // MARK: - Commits

    /// A commit: authorized against its parent state, every new leaf proven, its result a valid
    /// current-profile state.
    static func judge(_ commit: CommitCandidate) throws(MLSError) {
        let parent = try components(commit.previousContext.extensions)
        let parentAdmins = admins(parent)
        let suite = commit.previousContext.cipherSuite
        guard case .member(let committerLeaf) = commit.committer else {
            throw refuse("a commit from outside the group (\(commit.committer)) is not accepted in the current profile")
        }
        let committerIsAdmin = account(commit.previousTree.leaf(committerLeaf)).map(parentAdmins.contains) ?? false

        // Authorization against the candidate parent: an ordinary commit (a self-update with a
        // path, or SelfRemoves of non-admins) is anybody's; everything else is an admin's.
        var ordinary = true
        var updates: [(MLS.AppDataUpdate, byValue: Bool)] = []
        for covered in commit.proposals {
            switch covered.proposal {
            case .selfRemove:
                if case .member(let leaf) = covered.sender,
                    let who = account(commit.previousTree.leaf(leaf)), parentAdmins.contains(who)
                {
                    throw refuse("an admin's SelfRemove (leaf \(leaf)) cannot be committed: admins self-demote first (0x8003)")
                }
            case .appDataUpdate(let update):
                ordinary = false
                updates.append((update, covered.reference == nil))
                if case .member(let leaf) = covered.sender, covered.reference != nil,
                    !(account(commit.previousTree.leaf(leaf)).map(parentAdmins.contains) ?? false)
                {
                    throw refuse("an app_data_update by reference from leaf \(leaf), no admin (0x8003)")
                }
                try requireValidUpdate(update)
            case .groupContextExtensions:
                throw refuse("group_context_extensions proposals are not used in the current profile: app_data_update is")
            case .add(let keyPackage):
                ordinary = false
                try requireLeaf(keyPackage.leafNode, suite: suite, requires: parent.required.ids, "the added key package")
            case .remove:
                ordinary = false
            case .update(let leaf):
                ordinary = false
                try requireLeaf(leaf, suite: suite, requires: parent.required.ids, "an Update proposal's leaf")
            default:
                throw refuse("proposal type \(covered.proposal.type) is not accepted in the current profile")
            }
        }
        if commit.proposals.isEmpty, commit.pathLeaf == nil { ordinary = false }
        guard ordinary || committerIsAdmin else {
            throw refuse("commit from non-admin leaf \(committerLeaf): only admins change members or group state (0x8003)")
        }
        if let pathLeaf = commit.pathLeaf {
            try requireLeaf(pathLeaf, suite: suite, requires: parent.required.ids, "the committer's new leaf")
        }

        // The result. A commit that removes us leaves no next context to read; its proposals were
        // judged above, which is all a removed member can judge, and a disband's shape (every
        // member it removes judges it from the proposals: the admin list is carried by value).
        guard let next = commit.context else {
            if let admins = disbandAdmins(commit.proposals) {
                guard parent.required.contains(.groupLifecycle), parent.lifecycle == .active else {
                    throw refuse("a disband (0x800c) of a group that does not require an active lifecycle")
                }
                try requireDisbandShape(commit, committer: committerLeaf, admins: admins)
            }
            return
        }
        try requireLifecycleTransition(parent: parent, next: next.extensions, updates: updates, proposals: commit.proposals.count)
        let state = try components(next.extensions)
        if state.lifecycle == .disbanded, parent.lifecycle != .disbanded {
            try requireDisbandShape(commit, committer: committerLeaf, admins: state.admins?.admins)
        }
        try requireAdminsAreMembers(state, tree: commit.tree)
        if let policy = state.agentStream {
            let leaves: [(index: UInt32, capabilities: Capabilities)] = commit.tree.occupiedLeaves.compactMap { index in
                commit.tree.leaf(index).map { (index: index, capabilities: $0.capabilities) }
            }
            do throws(MarmotError) { try policy.requireRoles(of: leaves) } catch {
                throw refuse("component 0x8006: \(error.code.name): \(error.reason)")
            }
        }
    }

    /// group-lifecycle-v1.md "Disband update and Commit shape": every other leaf removed, the
    /// committer the only admin, nothing else changed.
    static func requireDisbandShape(_ commit: CommitCandidate, committer: UInt32, admins: [[UInt8]]?) throws(MLSError) {
        let others = commit.previousTree.occupiedLeaves.filter { $0 != committer }
        var removed: Set<UInt32> = []
        for covered in commit.proposals {
            switch covered.proposal {
            case .remove(let leaf): removed.insert(leaf)
            case .appDataUpdate(let update)
            where [AppComponentID.groupLifecycle.rawValue, AppComponentID.adminPolicy.rawValue].contains(update.componentID):
                break
            default: throw refuse("a disband (0x800c) commit carries only Removes and the lifecycle and admin updates")
            }
        }
        guard Set(others) == removed else { throw refuse("a disband (0x800c) removes every other leaf in the same commit") }
        guard let me = account(commit.previousTree.leaf(committer)), admins == [me] else {
            throw refuse("a disband (0x800c) leaves the committer the only admin (0x8003)")
        }
    }

    /// When `proposals` carry the lifecycle update to disbanded: the admin list of the admin-policy
    /// update beside it (empty when there is none or it does not decode, which the shape refuses).
    static func disbandAdmins(_ proposals: [CoveredProposal]) -> [[UInt8]]? {
        let disbanded = GroupLifecycle.disbanded.encoded()
        var disbands = false
        var admins: [[UInt8]] = []
        for covered in proposals {
            guard case .appDataUpdate(let update) = covered.proposal, case .update(let data) = update.operation else { continue }
            if update.componentID == AppComponentID.groupLifecycle.rawValue, data == disbanded { disbands = true }
            if update.componentID == AppComponentID.adminPolicy.rawValue {
                admins = (try? AdminList(bytes: data))?.admins ?? []
            }
        }
        return disbands ? admins : nil
    }

    /// The admin list is not empty and names only members (admin-policy-v1.md): removing an
    /// admin's leaf drops its key in the same commit.
    static func requireAdminsAreMembers(_ state: GroupComponents, tree: RatchetTree) throws(MLSError) {
        let admins = state.admins?.admins ?? []
        guard !admins.isEmpty else { throw refuse("the admin list (0x8003) is empty") }
        let members = Set(tree.occupiedLeaves.compactMap { account(tree.leaf($0)) })
        for admin in admins where !members.contains(admin) {
            throw refuse("admin \(admin.hexString) is not a member (0x8003)")
        }
    }

    /// group-lifecycle-v1.md as MDK applies it: once required, 0x800c stays required and its
    /// state changes only to a different value, by value; a group enables it in a commit that
    /// does exactly that (the requirement and the state, both by value); no state without the
    /// requirement.
    static func requireLifecycleTransition(
        parent: GroupComponents, next extensions: [Extension], updates: [(MLS.AppDataUpdate, byValue: Bool)], proposals: Int
    ) throws(MLSError) {
        let lifecycleID = AppComponentID.groupLifecycle
        let nextDictionary: AppDataDictionary?
        do throws(MarmotError) { nextDictionary = try AppDataDictionary.marmot(in: extensions) } catch { throw refuse(error) }
        var nextRequired: [AppComponentID] = []
        if let nextDictionary {
            do throws(MarmotError) { nextRequired = try AppComponents.marmot(in: nextDictionary)?.ids ?? [] } catch {
                throw refuse(error)
            }
        }
        let wasRequired = parent.required.contains(lifecycleID)
        let isRequired = nextRequired.contains(lifecycleID)
        let lifecycleUpdates = updates.filter { $0.0.componentID == lifecycleID.rawValue }
        if lifecycleUpdates.contains(where: { !$0.byValue }) {
            throw refuse("the lifecycle (0x800c) changes only by value")
        }
        if wasRequired {
            guard isRequired else { throw refuse("the lifecycle (0x800c) requirement cannot be dropped once enabled") }
            for (update, _) in lifecycleUpdates {
                if case .update(let data) = update.operation, let before = parent.lifecycle, before.encoded() == data {
                    throw refuse("a redundant lifecycle (0x800c) update: the state is already \(data.hexString)")
                }
            }
        } else {
            let hasState = nextDictionary?[component: lifecycleID] != nil
            if hasState, !isRequired { throw refuse("a lifecycle (0x800c) state in a group that does not require it") }
            if isRequired {
                let enabling = updates.filter { [AppComponentID.appComponents.rawValue, lifecycleID.rawValue].contains($0.0.componentID) }
                guard proposals == 2, enabling.count == 2, enabling.allSatisfy(\.byValue), hasState else {
                    throw refuse("the lifecycle (0x800c) is enabled by a commit of exactly its requirement and its state, by value")
                }
            }
        }
    }

    static func hex(_ id: UInt16) -> String { AppComponentID(id).hexTag }
}

extension GroupData {
    /// A current-profile group's state in the shape the engine keeps for both profiles: name and
    /// description from 0x8001 (empty without it), admins from 0x8003, routing from 0x8004, the
    /// image from 0x8002.
    static func current(_ extensions: [Extension]) throws(MarmotError) -> GroupData {
        let state = try GroupComponents(extensions: extensions)
        guard let routing = state.routing else {
            throw MarmotError(.componentMissing, "the group has no Nostr routing (0x8004)")
        }
        var admins: [PublicKey] = []
        for bytes in state.admins?.admins ?? [] {
            guard let key = try? PublicKey(bytes: bytes) else {
                throw MarmotError(.componentInvalid, "admin \(bytes.hexString) is not an x-only key (0x8003)")
            }
            admins.append(key)
        }
        var data = GroupData(
            nostrGroupID: routing.nostrGroupID, name: state.profile?.name ?? "", description: state.profile?.description ?? "",
            admins: admins, relays: routing.relays)
        // 0x8002: an absent component and the empty state both mean no image.
        if let image = state.blossomImage?.image {
            data.imageHash = image.hash
            data.imageKey = image.key
            data.imageNonce = image.nonce
            data.imageUploadKey = image.uploadKey
            data.imageMediaType = image.mediaType
        }
        return data
    }
}
