import EngineInterface
import Nostr

// Missing or corrupt material (marmot-protocol/marmot, foundation/conformance.md, "Crash and restart
// scenarios", boundary 8; docs/restart-matrix.md): after a restart the engine may no longer hold a
// usable record of a group the app holds (the record is gone, or it does not decode). That group is
// Unrecoverable: the user is told once with a typed error, the chat keeps what it showed, and every
// later input addressed to it is deferred with the disposition `missing_history`. It is never
// handed to the engine: with no history of the group there is no branch to judge it against, and
// applying whatever arrives would select the only branch left as if it were the agreed one. The
// other groups are untouched.

/// What the core keeps of an Unrecoverable group: why, and the inputs deferred since.
struct UnrecoverableChat: Sendable, Codable, Hashable {
    var reason: String
    /// Ids (hex) of the kind-445 events addressed to the group since it became Unrecoverable, in
    /// the order they arrived, each once.
    var deferred: [String] = []
}

extension GroupCore {
    /// The disposition of an input deferred because its group's history is missing.
    package static let missingHistory = "missing_history"
    /// The lifecycle of a group whose durable record is missing or corrupt.
    package static let unrecoverableLifecycle = "unrecoverable"

    /// At the restart: every chat whose group the engine answers `group_unrecoverable` (the record
    /// did not load) or `unknown_group` (the record is gone) becomes Unrecoverable. A chat we were
    /// removed from is left alone: the engine may have dropped an ended group.
    func markUnrecoverableChats() async {
        for chatID in chats.keys.sorted() {
            guard let chat = chats[chatID], !chat.isRemoved, chat.unrecoverable == nil else { continue }
            do {
                _ = try await engine.group(chat.mlsGroupID)
            } catch {
                guard error.code == .groupUnrecoverable || error.code == .unknownGroup else { continue }
                chats[chatID]?.unrecoverable = UnrecoverableChat(reason: "\(error.code.name): \(error.reason)")
                fail(
                    CoreError(.groupUnrecoverable, "group \(chat.name) cannot be used: its record is missing or corrupt (\(error.reason))"),
                    chatID: chatID, engineCode: error.code)
            }
        }
    }

    /// Defers `event` when it is addressed to an Unrecoverable chat (true: the caller stops).
    func deferIfUnrecoverable(_ event: Event, in chatID: String) -> Bool {
        guard var lost = chats[chatID]?.unrecoverable else { return false }
        let id = event.id.hex
        if !lost.deferred.contains(id) {
            lost.deferred.append(id)
            chats[chatID]?.unrecoverable = lost
            note("event \(id.prefix(8)) for unrecoverable group \(chatID.prefix(8)) deferred: \(Self.missingHistory)")
        }
        return true
    }

    /// The canonical snapshot of each Unrecoverable group, which the engine cannot give (it has no
    /// usable record): the group id, the lifecycle, the gate, the deferred inputs and the messages
    /// the chat showed before; every field the lost record would have given is `unsupported`.
    package func unrecoverableSnapshots() -> [ProtocolSnapshot] {
        chats.keys.sorted().compactMap { chatID -> ProtocolSnapshot? in
            guard let chat = chats[chatID], let lost = chat.unrecoverable else { return nil }
            let why = "the group's durable record is missing or corrupt (\(lost.reason))"
            return ProtocolSnapshot(
                groupID: .value(chat.mlsGroupID.hex), epoch: .unsupported(reason: why), groupContextHash: .unsupported(reason: why),
                exporterCommitment: .unsupported(reason: why), leaves: .unsupported(reason: why),
                requiredCapabilities: .unsupported(reason: why), dictionary: .unsupported(reason: why),
                lifecycle: .value(Self.unrecoverableLifecycle), convergence: .unsupported(reason: why),
                localGates: .value(["\(Self.unrecoverableLifecycle): group actions refused"]), publications: .value([]),
                dispositions: .value(
                    lost.deferred.sorted().map { SnapshotDisposition(input: $0, disposition: Self.missingHistory) }),
                effects: .value(Set(chat.messages.map { "message:\($0.id)" }).sorted()))
        }
    }
}
