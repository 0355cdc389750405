import EngineInterface
import MLS
import Marmot

// Disbanding a current-profile group (app-components/group-lifecycle-v1.md, "Disband update and
// Commit shape"): one commit by an active admin that removes every other leaf, leaves the admin
// list holding exactly the committer, and moves the lifecycle (0x800c) from active to disbanded,
// inline. Receivers judge the same shape (CurrentRules.requireDisbandShape). The state is
// absorbing: a group whose lifecycle is disbanded is inactive for every member, the committer
// included, and takes no later traffic (GroupRecord.advance).
extension NativeSwiftEngine {
    /// Builds our disband commit, staged like any other until `mergePendingCommit`.
    /// - Throws: `.invalidInput` in the legacy profile, in a group that does not require the
    ///   lifecycle or is not active, `.notAdmin` for a member that is no admin.
    package func disbandGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try persisting { () throws(EngineError) in
            guard profile == .current else {
                throw EngineError(.invalidInput, "disbanding (0x800c) is the current profile's; a legacy group has no lifecycle")
            }
            let record = try activeRecord(group)
            let me = try requireAdmin(record)
            let state = try marmotStep { () throws(MarmotError) in try GroupComponents(extensions: record.mls.context.extensions) }
            guard state.required.contains(.groupLifecycle), state.lifecycle == .active else {
                throw EngineError(.invalidInput, "the group does not require an active lifecycle (0x800c): it cannot be disbanded")
            }
            var proposals: [Proposal] = record.mls.tree.occupiedLeaves.filter { $0 != record.mls.leafIndex }.map { .remove(leaf: $0) }
            // A full admin-policy replacement even when we are already the only admin (the text requires it).
            proposals.append(
                Self.update(.adminPolicy, try marmotStep { () throws(MarmotError) in try AdminList(admins: [me.bytes]).encoded() }))
            proposals.append(Self.update(.groupLifecycle, GroupLifecycle.disbanded.encoded()))
            return try stageCommit(in: group, adding: proposals, as: me)
        }
    }
}
