// What a core keeps across a restart (docs/core-state-format.md): every record a user or a peer
// could have been told about, so that nothing acknowledged is lost when the app stops and starts
// again. What belonged to the live connections (subscriptions and their catch-up buffers, key-package
// lookups' subscriptions, reconnect backoff) is left out: the restarted core makes it again when it
// starts (Persistence/GroupCore+Restart.swift).
import EngineInterface
import FoundationEssentials
import Nostr

/// A core's persisted state, version 1. Decoding checks every value as its wire decoder would
/// (keys are curve points, events verify); a file that fails is a `CoreError` `.stateUnreadable`.
package struct CoreSnapshot: Sendable, Codable {
    /// Bumped whenever a field changes meaning; a file of another version is refused, not guessed at.
    package static let currentVersion = 1

    var version = CoreSnapshot.currentVersion
    /// Whose state this is: a file written by another member's core is refused.
    var publicKey: PublicKey
    var nextNumber: UInt64
    var nextAcknowledgementToken: UInt64
    /// The last state the UI was given: its `rev` goes on from here (the host's rev continuity).
    var published: AppState
    var chats: [String: ChatRecord]
    var currentChatID: String?
    var chatEvents: [ChatEvent]
    var leaveRequested: Set<String>
    var openPage: OpenChatPage
    var errors: [AppError]
    var failedPeers: [FailedPeer]
    var decisions: [String: DecisionRecord]
    var rejections: [Rejection]
    var joinResults: [JoinResult]
    var leavingAfterStepDown: Set<String>
    var invitationRoles: [PublicKey: Role]
    var forgedInvitationRoles: Set<PublicKey>
    var adminInvitations: [String: Set<PublicKey>]
    var declinedDirectMessages: [PublicKey: Int]
    var leaveProposals: [String: LeaveProposal]
    var epochEnteredAt: [String: UInt64]
    var deferredCommits: [String: [CommitChange]]
    var futureEvents: [String: [FutureEvent]]
    var eventsWhileRemoved: [String: [Event]]
    var busy: [String: BusyOperation]
    var directory: Directory
    /// Handled event ids, oldest first, at most `SeenEvents.retained`. Files written before the
    /// cap hold a JSON array of the same ids in hash order (a Set), which reads as this array;
    /// this array reads as that Set: the field's meaning is unchanged, so the version is too.
    var seenEvents: [String]
    var fetches: [UInt64: KeyPackageFetch]
    var commits: [String: PendingCommit]
    var invitationQueues: [String: [Event]]
    var settling: [String: SettlingCommit]
    var stood: [String: SettlingCommit]
    var keyPackageAuthors: [String: PublicKey]
    var publishes: [String: PublishPurpose]
    /// Running timers with what they were for and how long they were set for: the world drops a
    /// stopped member's timers, so the restarted core starts each again (for its whole duration:
    /// a restart delays what was due, it never brings it forward).
    var timers: [PersistedTimer]
    var acknowledgementWatches: [String: AcknowledgementWatch]
    var notifications: NotificationLog
    var outbox: Outbox
    var channels: ChannelBook
    /// Our key-package events' ids → KeyPackageRefs (issue 30, N12); absent while we published none
    /// (and in files written before it was kept).
    var ownKeyPackages: [String: String]? = nil

    /// A running timer of the core.
    struct PersistedTimer: Sendable, Codable {
        let token: TimerToken
        let purpose: TimerPurpose
        let milliseconds: UInt64
    }
}

extension CoreSnapshot {
    /// The snapshot as stored: JSON with sorted keys (sets and dictionaries with non-string keys
    /// are arrays in hash order, so two writes of one state may differ in bytes, never in value).
    package func encoded() throws(CoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(self))
        } catch {
            throw CoreError(.stateUnreadable, "could not encode the core's state: \(error)")
        }
    }

    /// Reads a stored snapshot.
    /// - Throws: `CoreError` `.stateUnreadable` naming what is wrong (not JSON, another version, a
    ///   value that fails its check).
    package init(decoding bytes: [UInt8]) throws(CoreError) {
        struct Header: Decodable { let version: Int }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: Data(bytes))
        } catch {
            throw CoreError(.stateUnreadable, "the core's state file is not a state snapshot: \(Self.describe(error))")
        }
        guard header.version == Self.currentVersion else {
            throw CoreError(
                .stateUnreadable, "the core's state file has version \(header.version), this build reads \(Self.currentVersion)")
        }
        do {
            self = try decoder.decode(CoreSnapshot.self, from: Data(bytes))
        } catch {
            throw CoreError(.stateUnreadable, "the core's state file is damaged: \(Self.describe(error))")
        }
    }

    /// A decoding error as one line: what is wrong and where.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let (context, what): (DecodingError.Context, String) =
            switch error {
            case .dataCorrupted(let context): (context, "damaged value")
            case .keyNotFound(let key, let context): (context, "missing field `\(key.stringValue)`")
            case .typeMismatch(let type, let context): (context, "expected \(type)")
            case .valueNotFound(let type, let context): (context, "missing \(type)")
            @unknown default: (DecodingError.Context(codingPath: [], debugDescription: "\(error)"), "unreadable")
            }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return "\(what) at `\(path.isEmpty ? "(top)" : path)`: \(context.debugDescription)"
    }
}
