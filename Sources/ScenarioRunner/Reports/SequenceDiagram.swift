// A failing run drawn as a sequence diagram, so that a person can look instead of read: members
// and relays are lifelines, frames that arrived are arrows (lost or dropped ones end in a cross),
// steps and failing checks are notes across every lifeline, member updates and faults are notes on
// their lifeline. Built from a failure capsule; rendered as Mermaid text or as an HTML page with
// inline SVG (SequenceDiagram+HTML.swift).
import ScenarioModel
import Simulation

package struct SequenceDiagram: Sendable {
    package enum Item: Hashable, Sendable {
        /// A frame from one lifeline to another; `lost` when it never arrived.
        case arrow(from: String, to: String, label: String, lost: Bool)
        /// A note on some lifelines (all of them when `over` is empty).
        case note(over: [String], text: String, kind: NoteKind)
    }

    package enum NoteKind: String, Hashable, Sendable {
        case step, failure, update, fault
    }

    package let title: String
    /// Lifelines, members first then relays, in declaration order.
    package let participants: [String]
    package let items: [Item]

    /// The diagram of the run a capsule recorded. `limit` caps the trace entries drawn (the last
    /// ones are kept, where a failure usually is); nil draws them all.
    package init(capsule: FailureCapsule, limit: Int? = nil) {
        let scenario = try? Scenario(yaml: capsule.scenarioText, file: capsule.scenarioFile)
        var participants = scenario?.members.map(\.label) ?? []
        let relays = scenario.map { $0.relays.isEmpty ? WorldConfiguration.standardRelays.map(\.name) : $0.relays.map(\.name) } ?? []
        participants += relays
        // Ends of links the scenario does not declare (none in practice) still get a lifeline.
        for line in capsule.trace {
            let ends = line.subject.components(separatedBy: "->")
            if ends.count == 2 { for end in ends where !participants.contains(end) { participants.append(end) } }
        }
        let lifelines = Set(participants)
        var items: [Item] = []
        let first = limit.map { max(0, capsule.trace.count - $0) } ?? 0
        var steps = capsule.steps.sorted { $0.traceIndex < $1.traceIndex }[...]
        let failures = capsule.failures
        var marked: Set<String> = []
        func flushSteps(upTo index: Int) {
            while let step = steps.first, step.traceIndex <= index {
                steps = steps.dropFirst()
                items.append(.note(over: [], text: "\(step.title) (\(step.location))", kind: .step))
                for failure in failures where failure.check.hasPrefix(step.title) && !marked.contains(failure.check) {
                    marked.insert(failure.check)
                    items.append(.note(over: [], text: "FAIL \(failure.check): \(Self.brief(failure))", kind: .failure))
                }
            }
        }
        if first > 0 { items.append(.note(over: [], text: "… \(first) earlier trace entries not drawn", kind: .step)) }
        for (index, line) in capsule.trace.enumerated() where index >= first {
            flushSteps(upTo: index)
            if let item = Self.item(for: line, lifelines: lifelines) { items.append(item) }
        }
        flushSteps(upTo: Int.max)
        for failure in failures where !marked.contains(failure.check) {
            items.append(.note(over: [], text: "FAIL \(failure.check): \(Self.brief(failure))", kind: .failure))
        }
        self.title = "\(capsule.scenarioFile) [\(capsule.engine), seed \(capsule.seed)]"
        self.participants = participants
        self.items = items
    }

    static func brief(_ failure: CheckResult) -> String {
        var parts: [String] = []
        if let expected = failure.expected { parts.append("expected \(expected)") }
        if let observed = failure.observed { parts.append("observed \(observed)") }
        if parts.isEmpty, !failure.detail.isEmpty { parts.append(failure.detail) }
        return parts.joined(separator: "; ")
    }

    /// The diagram item for a trace entry, or nil for bookkeeping (scheduler deliveries, timers,
    /// connections, relay decisions, core notes).
    static func item(for line: TraceLine, lifelines: Set<String>) -> Item? {
        let ends = line.subject.components(separatedBy: "->")
        let link = ends.count == 2 && lifelines.contains(ends[0]) && lifelines.contains(ends[1]) ? (ends[0], ends[1]) : nil
        switch (line.category, link) {
        case ("arrive", let (from, to)?):
            return .arrow(from: from, to: to, label: line.detail, lost: false)
        case ("lost", let (from, to)?):
            return .arrow(from: from, to: to, label: "lost: \(line.detail)", lost: true)
        case ("send", let (from, to)?) where line.detail.hasPrefix("unreachable") || line.detail == "no such relay":
            return .arrow(from: from, to: to, label: line.detail, lost: true)
        case ("fault", let (from, to)?) where line.detail.contains(" drop ") || line.detail.hasPrefix("reject"):
            return .arrow(from: from, to: to, label: "fault: \(line.detail)", lost: true)
        case ("fault", let (from, to)?):
            return .note(over: [from, to], text: "fault: \(line.detail)", kind: .fault)
        case ("fault", nil):
            return .note(
                over: lifelines.contains(line.subject) ? [line.subject] : [], text: "fault \(line.subject): \(line.detail)", kind: .fault)
        case ("update", nil) where lifelines.contains(line.subject):
            return .note(over: [line.subject], text: line.detail, kind: .update)
        case ("inject", let (from, to)?):
            return .arrow(from: from, to: to, label: "inject: \(line.detail)", lost: false)
        default:
            return nil
        }
    }

    /// Mermaid `sequenceDiagram` text. Lifelines get short aliases (`P1`…), so any name works.
    package func mermaid() -> String {
        var alias: [String: String] = [:]
        var out = "sequenceDiagram\n"
        out += "    title \(Self.mermaidText(title))\n"
        for (index, name) in participants.enumerated() {
            alias[name] = "P\(index + 1)"
            out += "    participant P\(index + 1) as \(Self.mermaidText(name))\n"
        }
        let span = participants.count > 1 ? "P1,P\(participants.count)" : "P1"
        for item in items {
            switch item {
            case .arrow(let from, let to, let label, let lost):
                out += "    \(alias[from] ?? "P1")\(lost ? "-x" : "->>")\(alias[to] ?? "P1"): \(Self.mermaidText(label))\n"
            case .note(let over, let text, let kind):
                let target = over.isEmpty ? span : over.compactMap { alias[$0] }.joined(separator: ",")
                let prefix = kind == .failure ? "❌ " : ""
                out += "    Note over \(target.isEmpty ? span : target): \(prefix)\(Self.mermaidText(text))\n"
            }
        }
        return out
    }

    /// Text Mermaid shows as written: no line breaks, and `;` `#` (statement and entity syntax) escaped.
    static func mermaidText(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\n", "\r": out += " "
            case ";": out += "#59;"
            case "#": out += "#35;"
            default: out.append(character)
            }
        }
        return String(out.prefix(300))
    }
}
