// The outcome's schema: every field a member's outcome can carry, at every level (member, chat,
// notification, channel, channel relay, preferences, open chat), with whether a stored vector
// keeps it or only `expect` sections check it, and when it is present. Observation builds outcomes
// through `OutcomeFields`, which applies these rules; ConformanceRunner.vectorOutcome drops the
// expect-only fields by this table; ExpectationChecks reads an absent field by it.

/// Where a field's value is checked.
package enum OutcomeStorage: Sendable, Equatable {
    /// Stored in the vector (and checked by `expect` too).
    case vector
    /// Checked by `expect` only: a vector leaves it out, because it is not the same on every
    /// engine or seed (an order that follows `created_at` seconds, a count that follows arrival).
    case expectOnly
}

/// When a field is written.
package enum OutcomePresence: Sendable, Equatable {
    /// On every entry (`null` when there is nothing to show).
    case always
    /// A list written only while it holds something; an absent one reads as `[]`.
    case whenNonEmpty
    /// Only while the condition holds (it says which); an absent one reads as `null`.
    case when(String)
    /// A switch written only when off (`false`); absent means on.
    case whenOff
}

/// One field's rule.
package struct OutcomeRule: Sendable, Equatable {
    package let storage: OutcomeStorage
    package let presence: OutcomePresence

    static let stored = OutcomeRule(storage: .vector, presence: .always)
    static let expectOnly = OutcomeRule(storage: .expectOnly, presence: .always)
    static func vector(_ presence: OutcomePresence) -> OutcomeRule { OutcomeRule(storage: .vector, presence: presence) }
}

/// The field names of one level of the outcome, each with its rule.
package protocol OutcomeFieldName: RawRepresentable<String>, CaseIterable, Hashable, Sendable {
    var rule: OutcomeRule { get }
}

extension OutcomeFieldName {
    /// The fields a vector leaves out, by name.
    package static var expectOnly: [String] { allCases.filter { $0.rule.storage == .expectOnly }.map(\.rawValue).sorted() }

    /// What an `expect` section compares with when the outcome lacks the field `name`.
    package static func absentValue(of name: String) -> Outcome {
        Self(rawValue: name)?.rule.presence == .whenNonEmpty ? .list([]) : .null
    }
}

/// The table (docs/scenarios.md, "Vectors").
package enum OutcomeSchema {
    /// A member's outcome.
    package enum Member: String, OutcomeFieldName {
        case notifications, channels, chats, errors, rejections
        case failedPeers = "failed-peers"
        /// Reasons of the permission table's refusals (`role.…`, `pref.…`): ours, the same on every engine.
        case roleRejections = "role-rejections"
        case pendingDecisions = "pending-decisions"
        case joinResults = "join-results"
        /// The chat list as shown (most recent first), the open chat's view and the chat events:
        /// they follow `created_at` seconds an engine may stamp from its own clock.
        case chatOrder = "chat-order"
        case openChat = "open-chat"
        case chatEvents = "chat-events"
        /// The operations in flight a UI shows a spinner for (`kind`, or `kind: chat name`): a
        /// snapshot of a moment, so checked by `expect` and `check` only.
        case busy
        /// Invitations waiting for the member's answer (member field `invitations: ask`), each
        /// `"<group>: invited by <label>, <n> members"`.
        case invitations
        /// Groups opened from a link and not joined (`"<name>: <status>, <n> members"`).
        case preparedGroups = "prepared-groups"
        /// Where the core routed the UI (002): `chat-list`, or `chat: NAME` after the member's own
        /// creation or opening a chat; expect-only so that no stored vector changes with it.
        case route

        package var rule: OutcomeRule {
            switch self {
            case .notifications, .channels, .chats, .errors, .rejections, .failedPeers: .stored
            case .roleRejections, .pendingDecisions, .joinResults, .invitations, .preparedGroups: .vector(.whenNonEmpty)
            case .chatOrder, .openChat, .chatEvents, .busy, .route: .expectOnly
            }
        }
    }

    /// One chat of a member.
    package enum Chat: String, OutcomeFieldName {
        case name, members, admins, removed
        /// The group image's status (not its hash: random, and different per engine's encryption).
        case image
        case epoch, messages, hidden, history
        case roles, blocked, link, pending, deleted, status, preferences
        /// What the stored members, admins and messages already hold: ourselves apart, our admin
        /// bit, the newest message; and the description.
        case others, description
        case isAdmin = "is-admin"
        case lastMessage = "last-message"
        /// What the chat list shows of the chat: a group or a 1:1 chat, how many messages are
        /// unread (follows arrival), and each member's display name as this member knows it
        /// (label → kind-0 name, `null` while unknown; ourselves included).
        case isGroup = "is-group"
        case unread
        case memberNames = "member-names"
        /// Each member's key as the chat shows it (label → `npub of <label>` when the NIP-19 text
        /// the core shows decodes to that member's key, else the text itself) and its profile
        /// picture (label → the kind-0 `picture` URL, `null` while none is known).
        case memberNpubs = "member-npubs"
        case memberPictures = "member-pictures"

        package var rule: OutcomeRule {
            switch self {
            case .name, .members, .admins, .removed: .stored
            case .image: .vector(.when("the group data names a picture"))
            case .epoch, .messages: .vector(.when("the member's engine holds the group"))
            case .hidden: .vector(.when("the engine holds the group and the chat used the role hierarchy"))
            case .history: .vector(.whenNonEmpty)
            case .roles, .blocked, .link, .pending, .status: .vector(.when("the chat used the role hierarchy"))
            case .deleted: .vector(.when("the chat used the role hierarchy and was deleted"))
            case .preferences: .vector(.when("the chat used the role hierarchy and has preferences"))
            case .others, .isAdmin, .description, .lastMessage, .isGroup, .unread, .memberNames, .memberNpubs, .memberPictures:
                .expectOnly
            }
        }
    }

    /// A chat's preferences.
    package enum Preferences: String, OutcomeFieldName {
        case reactions, welcome
        case fullDeletion = "full-deletion"
        case disappearAfter = "disappear-after"
        case historyForNewMembers = "history-for-new-members"
        case files
        case voiceMessages = "voice-messages"
        case directMessages = "direct-messages"

        package var rule: OutcomeRule {
            switch self {
            case .reactions, .welcome, .fullDeletion, .disappearAfter, .historyForNewMembers: .stored
            case .voiceMessages, .files, .directMessages: .vector(.whenOff)
            }
        }
    }

    /// A notification intent.
    package enum Notification: String, OutcomeFieldName {
        case title, body, chat, sender, group, payload
        /// Whether the intent's picture is the chat's verified group image.
        case image
        /// The badge counts what was unread when raised, which follows arrival order.
        case type, sound, badge

        package var rule: OutcomeRule {
            switch self {
            case .title, .body, .chat, .sender, .group, .payload: .stored
            case .image: .vector(.when("the intent names a picture"))
            case .type, .sound, .badge: .expectOnly
            }
        }
    }

    /// A channel of a member.
    package enum Channel: String, OutcomeFieldName {
        case name, role, welcome, connected, link, relays, messages
        case joinFailed = "join-failed"
        case rejectedBroadcasts = "rejected-broadcasts"
        case deleted
        /// The owners this member knows (labels, sorted), kept current as owners leave (003).
        /// Expect-only, so that the channel vectors stored before it stay as they were.
        case owners

        package var rule: OutcomeRule {
            switch self {
            case .name, .role, .welcome, .connected, .link, .relays, .messages, .joinFailed, .rejectedBroadcasts: .stored
            case .deleted: .vector(.when("the channel was deleted"))
            case .owners: .expectOnly
            }
        }
    }

    /// One relay of a channel.
    package enum ChannelRelay: String, OutcomeFieldName {
        case relay, status, subscribers, failure, test

        package var rule: OutcomeRule {
            switch self {
            case .relay, .status: .stored
            case .subscribers: .vector(.when("an owner's relay reported its subscriber count"))
            case .failure: .vector(.when("the relay failed"))
            case .test: .vector(.when("an owner tested the relay"))
            }
        }
    }

    /// The open chat's view (inside the expect-only `open-chat`).
    package enum OpenChat: String, OutcomeFieldName {
        case name, messages
        case canLoadOlder = "can-load-older"
        /// Our own messages in view order, each `text: state` (`pending`, `sent` or `failed`).
        case deliveries

        package var rule: OutcomeRule { .stored }
    }
}

/// An outcome map built by the schema's rules: a field is written as its presence says.
package struct OutcomeFields<Field: OutcomeFieldName> {
    package private(set) var fields: [String: Outcome] = [:]

    package init() {}

    /// Sets `field` to `value`, or leaves it out when its presence says so: nil is "not present"
    /// for a conditional field and `null` for an `always` one.
    package mutating func set(_ field: Field, _ value: Outcome?) {
        switch field.rule.presence {
        case .always:
            fields[field.rawValue] = value ?? .null
        case .whenNonEmpty:
            if let value, value != .list([]) { fields[field.rawValue] = value } else { fields[field.rawValue] = nil }
        case .when:
            fields[field.rawValue] = value
        case .whenOff:
            if let value, value != .bool(true) { fields[field.rawValue] = value } else { fields[field.rawValue] = nil }
        }
    }

    package var outcome: Outcome { .map(fields) }
}
