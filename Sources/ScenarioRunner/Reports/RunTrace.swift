// A run's whole trace in the order things happened: the network's trace (deliveries, relay
// decisions, faults) and the members' log (core notes, state updates, timers) are two records
// with fingerprints of their own; `World.logAnchors` says where each member entry falls among the
// network entries, so the merge is exact, not a guess by timestamp.
import DeterministicScheduler
import Simulation

/// One entry of a run's trace.
package struct TraceLine: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Which record it comes from.
    package enum Source: String, Codable, Hashable, Sendable {
        /// The relay network: `send`, `arrive`, `deliver`, `relay`, `fault`, `connect`, `lost`, `inject`, …
        case network
        /// The members: `member`, `core`, `update`, `timer`, `fault` (tampering), …
        case members
    }

    /// Virtual time since the run started, in microseconds.
    package let micros: UInt64
    package let source: Source
    package let category: String
    /// Who or what it concerns: `alice`, `relay-a`, a link `alice->relay-a`, `rule-3`, …
    package let subject: String
    package let detail: String

    package init(micros: UInt64, source: Source, category: String, subject: String, detail: String) {
        self.micros = micros
        self.source = source
        self.category = category
        self.subject = subject
        self.detail = detail
    }

    /// `12.000250 arrive relay-a->alice: EVENT s1 1a2b3c4d kind 445`.
    package var description: String {
        "\(VirtualInstant(microseconds: micros)) \(category) \(subject): \(detail)"
    }
}

package enum RunTrace {
    /// Both records merged: member entry `i` comes after the first `anchors[i]` network entries.
    /// Missing anchors (an older world) put the member entries last rather than drop them.
    package static func merged(network: Trace, members: Trace, anchors: [Int]) -> [TraceLine] {
        var out: [TraceLine] = []
        out.reserveCapacity(network.entries.count + members.entries.count)
        var next = 0
        func line(_ entry: TraceEntry, _ source: TraceLine.Source) -> TraceLine {
            TraceLine(
                micros: entry.time.microseconds, source: source, category: entry.category, subject: entry.subject, detail: entry.detail)
        }
        for (index, entry) in members.entries.enumerated() {
            let before = index < anchors.count ? min(anchors[index], network.entries.count) : network.entries.count
            while next < before {
                out.append(line(network.entries[next], .network))
                next += 1
            }
            out.append(line(entry, .members))
        }
        while next < network.entries.count {
            out.append(line(network.entries[next], .network))
            next += 1
        }
        return out
    }

    /// The whole trace of `world` so far.
    package static func of(_ world: World) -> [TraceLine] {
        merged(network: world.network.trace, members: world.log, anchors: world.logAnchors)
    }
}

/// Where a step began in a run's merged trace, for diagrams: the step's entries start at `traceIndex`.
package struct StepMark: Codable, Hashable, Sendable {
    /// The step's check identity, e.g. `step 'after the race'` or `step 6 (check)`.
    package let title: String
    /// `file:line:column` of the step.
    package let location: String
    /// How many merged trace entries came before the step.
    package let traceIndex: Int

    package init(title: String, location: String, traceIndex: Int) {
        self.title = title
        self.location = location
        self.traceIndex = traceIndex
    }
}
