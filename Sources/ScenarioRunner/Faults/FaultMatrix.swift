// The fault matrix: scenario files generated from one table of flows (what a member does),
// their publish and delivery points (which frames carry it) and the fault kinds the relay network
// can apply, one scenario per cell, each ending with what must hold once the fault has healed.
// Checked in under scenarios/fault-matrix/ with the report docs/fault-matrix.md; a test keeps
// both up to date, and `marmot-conform fault-matrix` rewrites them.

package enum FaultMatrix {
    /// Which way the frames of a point travel.
    enum Direction: String, Sendable {
        case toRelay = "to-relay"
        case toMember = "to-member"
    }

    /// A publish or delivery point of a flow: the frames selected by who sends or receives them,
    /// their kind, their direction and the relay they travel to or from.
    struct Point: Sendable {
        /// The point's name in file names and the report (`commit`, `welcome-at-invitee`, …).
        let name: String
        /// What the frames are, for the report.
        let summary: String
        let member: String
        let kind: Int
        let direction: Direction
        let relay: String
    }

    /// The fault kinds of the matrix, each a scenario `fault` step (docs/scenarios.md).
    enum Fault: String, CaseIterable, Sendable {
        case drop, delay, duplicate, reorder, reject
        case withholdOK = "withhold-ok"
        case relayDown = "relay-down"
        case senderPartitioned = "sender-partitioned"
        case receiverPartitioned = "receiver-partitioned"
        case inviteeInboxDown = "invitee-inbox-down"
        case restart

        /// What the fault does, for the report.
        var summary: String {
            switch self {
            case .drop: "the point's first frame is lost (on its way to a member, with its connection: TCP loses no single frame)"
            case .delay: "the point's first frame arrives 10 s late"
            case .duplicate: "the point's first frame arrives twice"
            case .reorder: "the point's first frame arrives after the next one on its link"
            case .reject: "the relay answers the first publish `OK false \"blocked: …\"` without storing it"
            case .withholdOK: "the relay stores the first publish, its OK is lost"
            case .relayDown: "the point's relay is down for 20 s from just before the flow"
            case .senderPartitioned: "the sender is cut off from every relay for 20 s"
            case .receiverPartitioned: "the receiver is cut off from every relay for 20 s"
            case .inviteeInboxDown: "the invitee's own inbox relay is down for 20 s"
            case .restart:
                "the point's member stops and starts again \(FaultMatrix.restartDown) later from its persisted state: "
                    + "a publish reaches its relay and its OK dies with the connection; a delivery is lost with its connection"
            }
        }

        /// Whether the fault acts on frames of `point` (the others are pruned: the loader or the
        /// runner's "fault selector matched" check would report them as doing nothing).
        func applies(to point: Point) -> Bool {
            switch self {
            case .drop, .delay, .duplicate, .reorder, .restart: true
            case .reject, .withholdOK, .senderPartitioned: point.direction == .toRelay
            case .receiverPartitioned: point.direction == .toMember
            case .relayDown: point.direction == .toRelay && point.relay != FaultMatrix.inviteeInbox
            case .inviteeInboxDown: point.direction == .toRelay && point.relay == FaultMatrix.inviteeInbox
            }
        }
    }

    /// What must hold after healing when a cell's failure is final by design: the actor records
    /// a typed error (or failed peer), and every member holds the same group (no split).
    struct Final: Sendable {
        let why: String
        let outcome: Outcome
        /// Each member's errors (members not listed: none); nil in races, where who wins decides.
        var errors: [String: [String]]? = [:]
        /// Further fields of a member's expectation (`failed-peers: […]`), YAML text.
        var fields: [String: String] = [:]
    }

    /// One flow: the steps a member (or two, racing) takes, the points where its frames travel, and
    /// the state every member must reach.
    struct Flow: Sendable {
        /// File-name stem (`add`, `add-x-rename`).
        let name: String
        let summary: String
        /// Whether the group exists before the flow (all but `create`).
        var needsGroup = true
        /// Whether dave, the outsider, takes part.
        var withDave = false
        /// The flow's steps; more than one means they race in one `parallel` step.
        let actions: [String]
        let points: [Point]
        /// The state after healing.
        let outcome: Outcome
        /// Cells whose failure is final by design, by `point-fault`.
        var finals: [String: Final] = [:]
        /// Cells left out, by `point-fault`, with the reason (shown in the report).
        var pruned: [String: String] = [:]
        /// Cells that fail today, by `point-fault`, with the defect (shown in the report and the
        /// cell's header; never in the CI sample): what the matrix found and is not fixed yet.
        var open: [String: String] = [:]
        /// Cells that pass on our engine (swift seeds 1..10, mixed seed 1) and fail on MDK 0.8.0 for
        /// a defect of its own, by `point-fault`, with the defect: each has its entries in
        /// known-defects.yaml (a test checks), and, like open cells, stays out of the CI sample.
        var mdkDefects: [String: String] = [:]
        /// Races have seed-dependent winners: their outcome leaves out what the winner decides.
        var races: Bool { actions.count > 1 }
    }

    /// The state every member must reach after healing.
    struct Outcome: Sendable {
        /// Members of the group at the end (those who keep an active chat).
        let members: [String]
        /// Members whose chat shows them removed.
        var removed: [String] = []
        /// The group name, nil when a race decides it.
        var name: String? = "Team"
        /// Messages the flow itself sends, as `"sender: text"`.
        var messages: [String] = []
        /// Extra chat fields every member's chat must show (`roles: {…}`, …), YAML text.
        var chatFields: [String] = []
        /// Who writes the message after healing (a member that might have been stranded); nil when
        /// no group exists.
        let probe: String?
    }

    /// One cell of the matrix.
    struct Cell: Sendable {
        let flow: Flow
        let point: Point
        let fault: Fault
        var id: String { "\(point.name)-\(fault.rawValue)" }
        var final: Final? { flow.finals[id] }
        var open: String? { flow.open[id] }
        var mdkDefect: String? { flow.mdkDefects[id] }
        var path: String { "\(FaultMatrix.folder)/\(flow.name)/\(id).yaml" }
    }

    /// A generated file: its path under the repository and its text.
    package typealias File = GeneratedFile

    /// Where the scenarios are written, under the repository.
    package static let folder = "scenarios/fault-matrix"
    /// How many cells the table generates.
    package static var cellCount: Int { cells().count }
    /// The scenario names of the cells marked as MDK 0.8.0 defects, each of which must have its
    /// entries in known-defects.yaml.
    package static var mdkDefectScenarios: [String] {
        cells().filter { $0.mdkDefect != nil }.map { "fault matrix \($0.flow.name) \($0.point.name) \($0.fault.rawValue)" }
    }

    /// The invitee's own inbox relay (so that "invitee inbox down" spares everyone else's).
    static let inviteeInbox = "dave-inbox"

    /// Every cell, flow by flow, point by point, fault by fault, minus the pruned ones.
    static func cells() -> [Cell] {
        flows.flatMap { flow in
            // One outage cell per relay and per partitioned member: every point on that relay, or
            // of that member, would see the same outage.
            var outages = Set<String>()
            return flow.points.flatMap { point in
                Fault.allCases.compactMap { fault -> Cell? in
                    guard fault.applies(to: point) else { return nil }
                    switch fault {
                    case .relayDown, .inviteeInboxDown: guard outages.insert("relay \(point.relay)").inserted else { return nil }
                    case .senderPartitioned, .receiverPartitioned:
                        guard outages.insert("member \(point.member)").inserted else { return nil }
                    default: break
                    }
                    let cell = Cell(flow: flow, point: point, fault: fault)
                    return flow.pruned[cell.id] == nil ? cell : nil
                }
            }
        }
    }

    /// Every generated file: one scenario per cell, the CI sample's list and the report.
    package static func files() -> [File] {
        cells().map { File(path: $0.path, text: scenario($0)) }
            + [ciSampleList(), separateLineMarker(), File(path: "docs/fault-matrix.md", text: report())]
    }
}
