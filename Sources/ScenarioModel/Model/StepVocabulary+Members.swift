// The member-action verbs: each is a GroupCore action a member performs through its app core,
// with the engine capability it needs (`.local`: the core does it without asking its engine).
// The role hierarchy is GroupCore's (GroupCore/Roles/PermissionTable.swift).

extension StepVocabulary {
    static let messages = StepRequirement.engine(.applicationMessages)

    static let memberVerbs: [StepVerb] = [
        .member(
            "create-group", "a member creates a group chat with peers", needs: .engine(.createGroup),
            [
                by, FieldSpec("with", .members, required: true), FieldSpec("name", .text), FieldSpec("description", .text),
                FieldSpec("on-partial-failure", .word(PartialFailureChoice.allCases.map(\.rawValue))), FieldSpec("admins", .members),
                FieldSpec("role", .word(roles)),
            ]
        ) { f in
            .createGroup(
                with: try f.labels("with"), name: try f.optionalString("name") ?? "",
                description: try f.optionalString("description") ?? "",
                onPartialFailure: try f.optionalWord("on-partial-failure", as: PartialFailureChoice.self) ?? .proceed,
                admins: try f.labels("admins"), role: try f.optionalWord("role", as: RoleName.self))
        },
        .member(
            "create-chat", "a member opens a 1:1 chat (a two-member group)", needs: .engine(.createGroup),
            [
                by, FieldSpec("with", .member, required: true),
            ]
        ) { f in .createChat(with: try f.string("with")) },
        .member(
            "add-members", "an admin adds members", needs: .engine(.addMembers),
            [
                by, FieldSpec("members", .members, required: true), FieldSpec("group", .text),
                FieldSpec("on-partial-failure", .word(PartialFailureChoice.allCases.map(\.rawValue))), FieldSpec("role", .word(roles)),
                forged,
            ]
        ) { f in
            .addMembers(
                try f.labels("members"), group: try f.optionalString("group"),
                onPartialFailure: try f.optionalWord("on-partial-failure", as: PartialFailureChoice.self) ?? .proceed,
                role: try f.optionalWord("role", as: RoleName.self))
        },
        .member(
            "decide", "a member answers its oldest pending decision (an action with on-partial-failure: ask)", needs: .local,
            [
                by, FieldSpec("choice", .word(DecisionAnswer.allCases.map(\.rawValue)), required: true),
            ]
        ) { f in .decide(try f.word("choice", as: DecisionAnswer.self)) },
        .member(
            "remove-members", "an admin removes members", needs: .engine(.removeMembers),
            [
                by, FieldSpec("members", .members, required: true), FieldSpec("group", .text), forged,
                FieldSpec("with-messages", .boolean),
            ]
        ) { f in
            .removeMembers(
                try f.labels("members"), group: try f.optionalString("group"), withMessages: try f.flag("with-messages", default: false))
        },
        .member(
            "leave", "a member leaves a group (an admin steps down first)", needs: .engine(.leave),
            [
                by, FieldSpec("group", .text), forged,
            ]
        ) { f in .leave(group: try f.optionalString("group")) },
        .member(
            "rename", "an admin renames a group", needs: .engine(.updateGroupData),
            [
                by, FieldSpec("to", .text, required: true), FieldSpec("group", .text),
            ]
        ) { f in .rename(to: try f.string("to"), group: try f.optionalString("group")) },
        .member(
            "send", "a member sends a message", needs: messages,
            [
                by, FieldSpec("text", .text, required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .send(text: try f.string("text"), group: try f.optionalString("group")) },
        .member(
            "send-many", "a member sends count messages, \"<text> <n>\", one every `every` (default 100ms)", needs: messages,
            [
                by, FieldSpec("text", .text, required: true), FieldSpec("count", .integer(1...10_000), required: true),
                FieldSpec("every", .duration), FieldSpec("group", .text),
            ]
        ) { f in
            .sendMany(
                text: try f.string("text"), count: Int(try f.optionalInteger("count", in: 1...10_000) ?? 1),
                every: try f.optionalDuration("every") ?? ScenarioDuration(milliseconds: 100), group: try f.optionalString("group"))
        },
        .member(
            "set-role", "a member gives another member a role", needs: messages,
            [
                by, FieldSpec("member", .member, required: true), FieldSpec("role", .word(roles), required: true),
                FieldSpec("group", .text), forged,
            ]
        ) { f in .setRole(member: try f.string("member"), role: try f.word("role", as: RoleName.self), group: try f.optionalString("group"))
        },
        .member(
            "set-roles", "a member gives several members one role in one batch (all or nothing)", needs: messages,
            [
                by, FieldSpec("members", .members, required: true), FieldSpec("role", .word(roles), required: true),
                FieldSpec("group", .text), forged,
            ]
        ) { f in
            .setRoles(members: try f.labels("members"), role: try f.word("role", as: RoleName.self), group: try f.optionalString("group"))
        },
        .member(
            "delete-message", "a member deletes a message (named by its text) for everyone", needs: messages,
            [
                by, FieldSpec("message", .text, required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .deleteMessage(text: try f.string("message"), group: try f.optionalString("group")) },
        .member(
            "block", "a member hides another member's messages for everyone", needs: messages,
            [
                by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .block(member: try f.string("member"), group: try f.optionalString("group")) },
        .member(
            "unblock", "a member lifts a block", needs: messages,
            [
                by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .unblock(member: try f.string("member"), group: try f.optionalString("group")) },
        .member(
            "create-link", "an admin creates the group link (later steps name this step)", needs: messages,
            [
                by, FieldSpec("role", .word(roles)), FieldSpec("approval", .boolean), FieldSpec("group", .text), forged,
            ]
        ) { f in
            .createLink(
                role: try f.optionalWord("role", as: RoleName.self) ?? .member, approval: try f.flag("approval", default: false),
                group: try f.optionalString("group"))
        },
        .member(
            "change-link", "an admin changes the role the group link gives", needs: messages,
            [
                by, FieldSpec("role", .word(roles), required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .changeLink(role: try f.word("role", as: RoleName.self), group: try f.optionalString("group")) },
        .member("delete-link", "an admin deletes the group link", needs: messages, [by, FieldSpec("group", .text), forged]) { f in
            .deleteLink(group: try f.optionalString("group"))
        },
        .member(
            "join-by-link", "a member asks to join by the link an earlier create-link step made", needs: .engine(.createGroup),
            [
                by, FieldSpec("link", .stepName, required: true),
            ]
        ) { f in .joinByLink(link: try f.string("link")) },
        .member(
            "accept-join", "an admin accepts a pending join request, with a role", needs: .engine(.addMembers),
            [
                by, FieldSpec("member", .member, required: true), FieldSpec("role", .word(roles)), FieldSpec("group", .text), forged,
            ]
        ) { f in
            .acceptJoin(
                member: try f.string("member"), role: try f.optionalWord("role", as: RoleName.self) ?? .member,
                group: try f.optionalString("group"))
        },
        .member(
            "reject-join", "an admin rejects a pending join request", needs: messages,
            [
                by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .rejectJoin(member: try f.string("member"), group: try f.optionalString("group")) },
        .member(
            "delete-group", "an owner deletes the group for everyone (notify: false tells nobody)", needs: messages,
            [
                by, FieldSpec("keep-history", .boolean), FieldSpec("notify", .boolean), FieldSpec("group", .text), forged,
            ]
        ) { f in
            .deleteGroup(
                keepHistory: try f.flag("keep-history", default: true), notify: try f.flag("notify", default: true),
                group: try f.optionalString("group"))
        },
        .member(
            "share-history", "an admin sends a member the chat's last messages as history (forged: a non-admin does)", needs: messages,
            [
                by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .shareHistory(member: try f.string("member"), group: try f.optionalString("group")) },
        .member(
            "set-preferences", "an owner sets the group preferences (unlisted ones keep their defaults)", needs: messages,
            [
                by, FieldSpec("reactions", .boolean), FieldSpec("full-deletion", .boolean), FieldSpec("disappear-after", .duration),
                FieldSpec("history-for-new-members", .boolean), FieldSpec("welcome", .text), FieldSpec("group", .text), forged,
                FieldSpec("voice-messages", .boolean), FieldSpec("files", .boolean), FieldSpec("direct-messages", .boolean),
            ]
        ) { f in
            var changes = PreferenceChanges(
                reactions: try f.optionalFlag("reactions"), fullDeletion: try f.optionalFlag("full-deletion"),
                disappearAfter: try f.optionalDuration("disappear-after"),
                historyForNewMembers: try f.optionalFlag("history-for-new-members"), welcome: try f.optionalString("welcome"))
            changes.voiceMessages = try f.optionalFlag("voice-messages")
            changes.files = try f.optionalFlag("files")
            changes.directMessages = try f.optionalFlag("direct-messages")
            return .setPreferences(changes, group: try f.optionalString("group"))
        },
        .member(
            "send-media", "a member sends a voice message or a file (a chat message with a NIP-92 imeta tag)", needs: messages,
            [
                by, FieldSpec("text", .text, required: true),
                FieldSpec("kind", .word(MediaKindName.allCases.map(\.rawValue)), required: true),
                FieldSpec("group", .text), forged,
            ]
        ) { f in
            .sendMedia(text: try f.string("text"), kind: try f.word("kind", as: MediaKindName.self), group: try f.optionalString("group"))
        },
        .member(
            "start-dm", "a member starts a 1:1 chat with a fellow member of the group", needs: .engine(.createGroup),
            [
                by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
            ]
        ) { f in .startDirectMessage(member: try f.string("member"), group: try f.optionalString("group")) },
        .member(
            "react", "a member reacts to a message (named by its text)", needs: messages,
            [
                by, FieldSpec("message", .text, required: true), FieldSpec("emoji", .text), FieldSpec("group", .text), forged,
            ]
        ) { f in .react(message: try f.string("message"), emoji: try f.optionalString("emoji") ?? "+", group: try f.optionalString("group"))
        },
        .member(
            "publish-roles", "an admin re-publishes the role table (forged: a member claims ownership)", needs: messages,
            [
                by, FieldSpec("group", .text), forged,
            ]
        ) { f in .publishRoles(group: try f.optionalString("group")) },
        .member(
            "open-link",
            "a member opens a group link (the one an earlier create-link step made, or a given text): the group shows as prepared",
            needs: .local, [by, FieldSpec("link", .stepName), FieldSpec("text", .text)]
        ) { f in
            let link = try f.optionalString("link")
            let text = try f.optionalString("text")
            guard (link == nil) != (text == nil) else {
                throw ScenarioError(.invalidValue, at: try f.required("by").location, "open-link takes exactly one of 'link' and 'text'")
            }
            return .openLink(link: link, text: text)
        },
        .member(
            "join-prepared", "a member asks to join a group it opened from a link (its admin confirmed the link stands)",
            needs: .engine(.createGroup), [by, FieldSpec("group", .text)]
        ) { f in .joinPrepared(group: try f.optionalString("group")) },
        .member("cancel-prepared", "a member drops a group it opened from a link", needs: .local, [by, FieldSpec("group", .text)]) { f in
            .cancelPrepared(group: try f.optionalString("group"))
        },
        .member(
            "accept-invite", "a member whose invitations wait (member field invitations: ask) joins an invited group",
            needs: .local, [by, FieldSpec("group", .text)]
        ) { f in .acceptInvite(group: try f.optionalString("group")) },
        .member(
            "decline-invite", "a member whose invitations wait declines one: its welcome is discarded, nothing is joined",
            needs: .engine(.declineWelcome), [by, FieldSpec("group", .text)]
        ) { f in .declineInvite(group: try f.optionalString("group")) },
        .member(
            "mute", "a member mutes a chat (no notification intents)", needs: .local,
            [
                by, FieldSpec("group", .text),
            ]
        ) { f in .mute(group: try f.optionalString("group")) },
        .member("unmute", "a member unmutes a chat", needs: .local, [by, FieldSpec("group", .text)]) { f in
            .unmute(group: try f.optionalString("group"))
        },
        .member(
            "open-chat", "a member opens a chat: its view shows the newest page of messages", needs: .local,
            [
                by, FieldSpec("group", .text), FieldSpec("page-size", .integer(1...10_000)),
            ]
        ) { f in
            .openChat(pageSize: try f.optionalInteger("page-size", in: 1...10_000).map { Int($0) }, group: try f.optionalString("group"))
        },
        .member(
            "load-older", "a member shows one more page of the open chat's older messages", needs: .local,
            [
                by, FieldSpec("group", .text),
            ]
        ) { f in .loadOlder(group: try f.optionalString("group")) },
        .member(
            "describe", "an admin changes the group's description", needs: .engine(.updateGroupData),
            [
                by, FieldSpec("to", .text, required: true), FieldSpec("group", .text),
            ]
        ) { f in .describe(to: try f.string("to"), group: try f.optionalString("group")) },
        .member(
            "set-image", "an admin sets the group's picture (MIP-01 group image: encrypted, uploaded, committed)",
            needs: .engine(.groupImage),
            [
                by, FieldSpec("image", .text, required: true), FieldSpec("mime-type", .text, required: true), FieldSpec("group", .text),
            ]
        ) { f in .setImage(image: try f.image("image"), mimeType: try f.string("mime-type"), group: try f.optionalString("group")) },
        .member(
            "set-relays", "an admin moves the group to these relays", needs: .engine(.updateGroupData),
            [
                by, FieldSpec("relays", .relays, required: true), FieldSpec("group", .text),
            ]
        ) { f in .setRelays(try f.relayNames("relays"), group: try f.optionalString("group")) },
        .member(
            "rotate-routing", "an admin moves the group to a fresh nostr_group_id (current profile: routing component 0x8004)",
            needs: .engine(.updateGroupData),
            [
                by, FieldSpec("group", .text),
            ]
        ) { f in .rotateRouting(group: try f.optionalString("group")) },
        .member(
            "disband", "an admin ends the group for everyone (current profile: lifecycle component 0x800c)",
            needs: .engine(.disbandGroup),
            [
                by, FieldSpec("group", .text),
            ]
        ) { f in .disband(group: try f.optionalString("group")) },
        .member(
            "self-update", "a member commits a fresh leaf of its own (MIP-02 self-update)", needs: .engine(.selfUpdate),
            [
                by, FieldSpec("group", .text),
            ]
        ) { f in .selfUpdate(group: try f.optionalString("group")) },
        .member(
            "create-channel", "an owner creates a channel served by chat relays", needs: .engine(.createGroup),
            [
                by, FieldSpec("relays", .members, required: true), FieldSpec("name", .text, required: true),
                FieldSpec("description", .text), FieldSpec("welcome", .text), FieldSpec("owners", .members),
            ]
        ) { f in
            .createChannel(
                relays: try f.labels("relays"), name: try f.string("name"), description: try f.optionalString("description") ?? "",
                welcome: try f.optionalString("welcome") ?? "", owners: try f.labels("owners"))
        },
        .member(
            "retry-channel", "the owner asks a channel's failed relays again", needs: .local,
            [
                by, FieldSpec("channel", .text),
            ]
        ) { f in .retryChannel(channel: try f.optionalString("channel")) },
        .member(
            "test-relays", "the owner tests each relay of a channel: a ping each must answer within 10 s", needs: .local,
            [
                by, FieldSpec("channel", .text),
            ]
        ) { f in .testRelays(channel: try f.optionalString("channel")) },
        .member(
            "join-channel", "a subscriber joins by the link of a member's channel", needs: .local,
            [
                by, FieldSpec("channel", .text), FieldSpec("from", .member, required: true),
            ]
        ) { f in .joinChannel(channel: try f.optionalString("channel"), from: try f.string("from")) },
        .member(
            "retry-join", "a subscriber asks the relays that failed it again", needs: .local,
            [
                by, FieldSpec("channel", .text),
            ]
        ) { f in .retryJoin(channel: try f.optionalString("channel")) },
        .member(
            "leave-channel",
            "a subscriber leaves a channel (its relays remove it from their fan-outs); a co-owner leaves (the last owner cannot)",
            needs: .local,
            [
                by, FieldSpec("channel", .text),
            ]
        ) { f in .leaveChannel(channel: try f.optionalString("channel")) },
        .member(
            "delete-channel", "an owner deletes a channel: relays stop serving it and tell its subscribers", needs: messages,
            [
                by, FieldSpec("channel", .text),
            ]
        ) { f in .deleteChannel(channel: try f.optionalString("channel")) },
        .member(
            "broadcast", "a member posts to a channel (owners only)", needs: messages,
            [
                by, FieldSpec("text", .text, required: true), FieldSpec("channel", .text),
            ]
        ) { f in .broadcast(text: try f.string("text"), channel: try f.optionalString("channel")) },
    ]
}
