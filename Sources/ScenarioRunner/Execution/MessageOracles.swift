// Oracles about application messages and forks that hold for every scenario, or that a scenario
// asks for: no lost message, no member ahead of its group, every member able to read every other.
import EngineInterface
import GroupCore
import Nostr
import Simulation

/// An application message a `send` step published, with who was in the group when it left.
struct SentMessage: Sendable {
    let sender: String
    let chatID: String
    let text: String
    /// The group's other members in the sender's view at the moment of sending.
    let recipients: [String]
    /// The kind-445 event that carried it (nil if the sender published none: refused, or offline).
    let event: Event?
}

enum MessageOracles {
    static let lostMessageClause = Clause("MIP-03", "Group Events")
    static let forkClause = Clause("RFC 9420", "§14 Sequencing of State Changes")
    static let probeClause = Clause("RFC 9420", "§15 Application Messages")

    /// Members' message histories per group, read from their engines once each (an MDK read is a
    /// driver round trip) however many messages an oracle asks about.
    struct Histories {
        let world: World
        var read: [String: [ReceivedMessage]] = [:]
        /// Reads that failed: the oracle that asked is then an `error`, not a verdict on messages.
        var reads: MemberReads

        init(world: World) {
            self.world = world
            reads = MemberReads(world)
        }

        /// Whether `label` holds a message `text` from `sender` in the group (in its engine's store).
        mutating func has(_ label: String, message text: String, from sender: String, in chatID: String) async -> Bool {
            guard let senderKey = world.member(sender)?.publicKey else { return false }
            let key = "\(label) \(chatID)"
            if read[key] == nil { read[key] = await messages(of: label, in: chatID) }
            return read[key, default: []].contains { $0.sender == senderKey && $0.rumor.content == text }
        }

        mutating func messages(of label: String, in chatID: String) async -> [ReceivedMessage] {
            guard let group = await reads.group(of: label, chatID: chatID) else { return [] }
            return await reads.messages(of: label, in: group) ?? []
        }
    }

    /// No lost message: every message a relay accepted is in the history of every member that was
    /// in the group when it was sent. A member whose record of the group was lost (restart-matrix
    /// boundary 8) accounts for it by deferring its event as `missing_history`: not lost, and not
    /// shown either (RestartReference checks that it was deferred); so does a message of a branch
    /// MIP-03 did not select whose sender was told it failed (``supersededAndReported``).
    static func noLostMessages(_ sent: [SentMessage], in world: World) async -> CheckResult {
        var lost: [String] = []
        var counted = 0
        var histories = Histories(world: world)
        for message in sent {
            guard let event = message.event, !world.relaysStoring(event.id).isEmpty else { continue }
            counted += 1
            var reported: Bool?
            for recipient in message.recipients
            where !(await histories.has(recipient, message: message.text, from: message.sender, in: message.chatID)) {
                if await deferred(event, by: recipient, in: world) { continue }
                if reported == nil { reported = await supersededAndReported(message, event: event, reads: &histories.reads) }
                if reported == true { continue }
                lost.append("\(recipient) lacks \(message.sender): \"\(message.text)\"")
            }
        }
        return histories.reads.judged(
            CheckResult(
                check: "no lost message", clause: lostMessageClause, verdict: lost.isEmpty ? .pass : .fail,
                expected: "every relay-accepted message (\(counted)) in the history of every member of its group at sending",
                observed: lost.isEmpty ? "none lost" : lost.joined(separator: "; ")))
    }

    /// Whether `message` was sent on a branch MIP-03 did not select (restart-matrix boundary 7):
    /// its sender's engine marks its event `superseded`, and its sender was told the message
    /// failed (`core.messageSuperseded` in that chat). Such a message is accounted for, not lost:
    /// the winning branch's members can never read it. Sent again instead, it is found in the
    /// histories like any message; superseded and neither sent again nor reported, it is lost.
    static func supersededAndReported(_ message: SentMessage, event: Event, reads: inout MemberReads) async -> Bool {
        guard await reads.capabilities(of: message.sender)?.supports(.protocolSnapshot) ?? false,
            let group = await reads.group(of: message.sender, chatID: message.chatID),
            let snapshot = await reads.protocolSnapshot(of: message.sender, in: group),
            (snapshot.dispositions.value ?? []).contains(where: {
                $0.input == event.id.hex && $0.disposition == RestartReference.supersededDisposition
            }),
            let state = await reads.state(of: message.sender)
        else { return false }
        return state.errors.contains { $0.code == .messageSuperseded && $0.chatID == message.chatID }
    }

    /// Whether `label` deferred `event` as `missing_history` (its group is Unrecoverable).
    static func deferred(_ event: Event, by label: String, in world: World) async -> Bool {
        let snapshots = await world.member(label)?.core.unrecoverableSnapshots() ?? []
        return snapshots.contains { snapshot in
            (snapshot.dispositions.value ?? []).contains { $0.input == event.id.hex && $0.disposition == GroupCore.missingHistory }
        }
    }

    /// No state fork: after quiescence no active member is alone at the highest epoch of its group
    /// (a committer that merged what nobody else applied). Members left behind (offline) are not
    /// forks; members that disagree at one epoch are the convergence oracle's business.
    static func noMemberAhead(in world: World) async -> CheckResult {
        var epochs: [String: [(label: String, epoch: UInt64)]] = [:]
        var reads = MemberReads(world)
        for label in world.labels {
            guard let groups = await reads.groups(of: label) else { continue }
            for group in groups where group.state == .active {
                epochs[group.nostrGroupID, default: []].append((label, group.epoch))
            }
        }
        var ahead: [String] = []
        for (_, members) in epochs.sorted(by: { $0.key < $1.key }) where members.count > 1 {
            let top = members.map(\.epoch).max() ?? 0
            let leaders = members.filter { $0.epoch == top }
            if leaders.count == 1 {
                let others = members.filter { $0.epoch != top }.map { "\($0.label) \($0.epoch)" }
                ahead.append("\(leaders[0].label) alone at epoch \(top) (others: \(others.joined(separator: ", ")))")
            }
        }
        return reads.judged(
            CheckResult(
                check: "no member ahead", clause: forkClause, verdict: ahead.isEmpty ? .pass : .fail,
                expected: "no active member alone at its group's highest epoch",
                observed: ahead.isEmpty ? "none" : ahead.joined(separator: "; ")))
    }

    /// The decryptability probe: every active member sends a probe to each of its groups, and every
    /// other active member of the group must read it. Runs after the outcome is recorded.
    static func probe(in world: World) async -> CheckResult {
        var probes: [(sender: String, chatID: String, text: String)] = []
        let members = MemberReads(world)
        for label in world.labels {
            guard let state = await members.state(of: label) else { continue }
            for chat in state.chatList where !chat.isRemoved {
                let text = "probe from \(label)"
                await world.dispatch(label, .sendMessage(chatID: chat.chatID, text: text))
                probes.append((label, chat.chatID, text))
            }
        }
        _ = await world.runUntilQuiescent()
        var unread: [String] = []
        var histories = Histories(world: world)
        for probe in probes {
            for label in world.labels where label != probe.sender {
                guard let chat = await histories.reads.state(of: label)?.chatList.first(where: { $0.chatID == probe.chatID }),
                    !chat.isRemoved
                else { continue }
                if !(await histories.has(label, message: probe.text, from: probe.sender, in: probe.chatID)) {
                    unread.append("\(label) cannot read \(probe.sender)'s probe")
                }
            }
        }
        return histories.reads.judged(
            CheckResult(
                check: "decryptability probe", clause: probeClause, verdict: unread.isEmpty ? .pass : .fail,
                expected: "every active member reads every other active member's probe (\(probes.count) sent)",
                observed: unread.isEmpty ? "all read" : unread.joined(separator: "; ")))
    }
}
