import EngineInterface
import Nostr

extension GroupCore {
    /// Builds the state from the records and emits an update when it differs from the last one.
    func publishStateIfChanged() {
        var next = AppState()
        // Chat relays show nothing; subscribers see a channel, not the relays' fan-out groups.
        // Ordered by the newest message the rule shows in the chat list's order (`orderAt`).
        // A group we deleted ourselves leaves our list (001 §9, "Chat is removed"); members keep it, marked.
        next.chatList = chats.values.filter {
            chatRelayConduct == nil && !channels.isFanOut($0.chatID) && roleView(of: $0).deletedBy != publicKey
        }.map(summary).sorted {
            ($0.orderAt, $1.summary.chatID) > ($1.orderAt, $0.summary.chatID)
        }.map(\.summary)
        next.currentChat = ui.currentChatID.flatMap { chats[$0] }.map(view)
        // A chat gone from the list (deleted by us) or left is no place to be, whatever cleared it.
        next.route =
            ui.routeChatID.flatMap { id in next.chatList.first { $0.chatID == id && !$0.isRemoved } }.map { .chat($0.chatID) } ?? .chatList
        next.busy = ui.busy.keys.sorted().compactMap { ui.busy[$0] }
        next.errors = ui.errors
        next.failedPeers = ui.failedPeers
        next.pendingDecisions = membership.decisions.values.sorted { $0.sequence < $1.sequence }.map(\.state)
        next.rejections = ui.rejections + roleRejections()
        next.joinResults = joinResultsForState()
        next.notifications = ui.notifications.intents
        next.chatEvents = ui.chatEvents
        next.channels = channelStates()
        next.invitations = invitationsForState()
        next.preparedGroups = preparedGroupsForState()
        next.rev = ui.published.rev
        guard next != ui.published else { return }
        next.rev = ui.published.rev + 1
        ui.published = next
        let cause = turn.causes.isEmpty ? "state" : turn.causes.joined(separator: "; ")
        emit(.update(AppUpdate(rev: next.rev, cause: cause, state: next)))
    }

    func memberInfo(_ chat: ChatRecord) -> [MemberInfo] {
        chat.members.map { MemberInfo(pubkey: $0, name: displayName(of: $0), isAdmin: chat.admins.contains($0), picture: picture(of: $0)) }
    }

    func displayName(of key: PublicKey) -> String? {
        key == publicKey ? configuration.profileName : directory.name(of: key)
    }

    /// The member's profile picture URL (kind 0 `picture`), ours from our configuration.
    func picture(of key: PublicKey) -> String? {
        key == publicKey ? configuration.profilePicture : directory.picture(of: key)
    }

    /// A chat list row, and the time it is ordered by. Preview, order and unread count each ask the
    /// visibility rule (State/Visibility.swift), so a hidden message neither shows in the preview
    /// nor moves the chat up nor counts unread.
    private func summary(_ chat: ChatRecord) -> (summary: ChatSummary, orderAt: UInt64) {
        let roles = roleView(of: chat)
        let visibility = visibility(of: chat, view: roles)
        let everyone = memberInfo(chat)
        let preview = chat.messages.last { visibility.isShown($0.id, in: .preview) }
        let orderAt = chat.messages.last { visibility.isShown($0.id, in: .chatOrder) }?.timestamp ?? 0
        let summary = ChatSummary(
            chatID: chat.chatID, routingIDs: chat.routingIDs, isGroup: chat.isGroup, groupName: chat.name,
            members: everyone.filter { $0.pubkey != publicKey },
            me: everyone.first { $0.pubkey == publicKey }, isAdmin: chat.admins.contains(publicKey), description: chat.description,
            lastMessage: preview?.content, lastMessageAt: preview?.timestamp,
            unreadCount: unreadCount(of: chat, visibility: visibility), epoch: chat.epoch, isRemoved: chat.isRemoved,
            isMuted: ui.notifications.muted.contains(chat.chatID),
            roles: roles.known ? Dictionary(uniqueKeysWithValues: chat.members.map { ($0, roles.role(of: $0)) }) : [:],
            blocked: roles.blocked, hiddenMessageIDs: roles.hidden, hasRoleChanges: chat.roles.hasChanges,
            link: roles.link, pendingJoins: roles.pending, deletion: roles.deletion,
            memberStatus: Dictionary(uniqueKeysWithValues: chat.members.map { ($0, roles.status[$0] ?? .invited) }),
            preferences: roles.preferences, historyMessages: chat.messages.filter(\.isHistory),
            image: chat.image.map { ChatImage(hash: $0.hashHex, status: chat.imageStatus) }, unrecoverable: chat.unrecoverable?.reason
        )
        return (summary, orderAt)
    }

    /// Re-reads a group from the engine (members, admins, name, epoch, removal).
    func refresh(_ chatID: String) async {
        guard var chat = chats[chatID] else { return }
        do {
            let snapshot = try await engine.group(chat.mlsGroupID)
            chat.name = snapshot.name
            chat.description = snapshot.description
            chat.admins = snapshot.admins
            chat.epoch = snapshot.epoch
            if snapshot.image != chat.image {
                chat.image = snapshot.image
                chat.imageStatus = .loading
                if let image = snapshot.image { fetchImage(image, of: chatID) }
            }
            if snapshot.state.isEnded {
                if !chat.isRemoved {
                    note(snapshot.state == .disbanded ? "\(chatID.prefix(8)) disbanded" : "removed from \(chatID.prefix(8))")
                    // Told in the same update as the flag, so no update is added. A fan-out is
                    // no chat of ours to the UI (a subscriber that left its channel is removed
                    // from it): nothing to tell.
                    if !channels.isFanOut(chatID) {
                        // A disband (group-lifecycle-v1.md) is told as one event, not as a removal.
                        let left = membership.leaveRequested.remove(chatID) != nil
                        ui.chatEvents.append(
                            ChatEvent(chatID: chatID, kind: snapshot.state == .disbanded ? .disbanded : left ? .left : .removed))
                    }
                }
                chat.isRemoved = true
                leaveRoute(chatID)
            } else {
                chat.members = try await engine.members(of: chat.mlsGroupID)
                let relays = try await engine.relays(of: chat.mlsGroupID)
                moveSubscription(of: chatID, from: chat.relays, to: relays)
                chat.relays = relays
                if !chat.addresses.contains(snapshot.nostrGroupID) {
                    // A routing rotation: listen at the new address too (the same subscription
                    // id, so each relay replaces the old filter with the wider one).
                    chat.routingIDs = (chat.routingIDs ?? []) + [snapshot.nostrGroupID]
                    chats[chatID] = chat
                    note("group \(chatID.prefix(8)) moved to address \(snapshot.nostrGroupID.prefix(8))")
                    send(.request(subscription: Self.groupSubscription(chatID), filters: [groupFilter(chatID)]), to: relays)
                }
            }
            chats[chatID] = chat
            changed("refresh \(chatID.prefix(8)) epoch \(chat.epoch)")
        } catch {
            fail(error, during: "reading group \(chatID.prefix(8))", chatID: chatID)
        }
    }

    /// Records a new group and subscribes to its kind-445 events on its relays.
    func adopt(_ snapshot: GroupSnapshot) async {
        do {
            let members = try await engine.members(of: snapshot.mlsGroupID)
            let relays = try await engine.relays(of: snapshot.mlsGroupID)
            var chat = ChatRecord(snapshot: snapshot, members: members, relays: relays)
            // A joiner sees the picture set before it came: fetched like any new image.
            if let image = snapshot.image {
                chat.image = image
                fetchImage(image, of: chat.chatID)
            }
            if let earlier = chats[chat.chatID] {
                // A member removed and welcomed back into the same group: what it read and judged
                // before its removal is its own history and stays (the new epoch's state is the
                // engine's). Without this a re-added member starts from an empty chat.
                chat.messages = earlier.messages
                chat.unread = earlier.unread
                chat.unreadIDs = earlier.unreadIDs
                chat.roles = earlier.roles
                note("rejoined \(chat.chatID.prefix(8)), keeping \(earlier.messages.count) earlier message(s)")
            }
            chats[chat.chatID] = chat
            changed("chat \(chat.chatID.prefix(8))")
            send(.request(subscription: Self.groupSubscription(chat.chatID), filters: [Self.groupFilter(chat.chatID)]), to: relays)
        } catch {
            fail(error, during: "reading new group", chatID: snapshot.nostrGroupID)
        }
    }

    /// An admin moved the group (MIP-01 relays): subscribe on the relays it gained (stored events
    /// wait for the EOSE, like any first subscription) and close it on those it left. Nothing is
    /// sent while the list stays the same, which is every refresh but a relay change.
    func moveSubscription(of chatID: String, from old: [String], to new: [String]) {
        let gained = new.filter { !old.contains($0) }
        let left = old.filter { !new.contains($0) }
        guard !gained.isEmpty || !left.isEmpty else { return }
        note("group \(chatID.prefix(8)) moved to \(new.count) relay(s): +\(gained.count) -\(left.count)")
        if !gained.isEmpty {
            send(.request(subscription: Self.groupSubscription(chatID), filters: [groupFilter(chatID)]), to: gained)
        }
        for url in left { emit(.send(url: url, message: .close(Self.groupSubscription(chatID)))) }
    }

    static func groupSubscription(_ chatID: String) -> SubscriptionID { SubscriptionID("g-\(chatID.prefix(32))") }

    static func groupFilter(_ chatID: String) -> Filter { Filter(kinds: [.groupEvent], tags: ["h": [chatID]]) }

    /// The filter of a chat we hold: every address it has had (routing rotations included).
    func groupFilter(_ chatID: String) -> Filter {
        Filter(kinds: [.groupEvent], tags: ["h": Set(chats[chatID]?.addresses ?? [chatID])])
    }

    /// The chat an event's `h` tag addresses: the chat of that id, or the one that moved there.
    func chatID(addressedBy address: String) -> String {
        if chats[address] != nil { return address }
        return chats.keys.sorted().first { chats[$0]?.routingIDs?.contains(address) ?? false } ?? address
    }
}
