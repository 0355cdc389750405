// Loading a scenario's steps: each step names exactly one verb of StepVocabulary, its fields are
// checked against the verb's FieldSpecs (references to members, relays and earlier steps resolve),
// then the verb's decoder turns them into a typed StepAction.

extension Scenario {
    struct StepContext {
        let members: [String]
        let relays: [String]
        var stepNames: [String] = []
    }

    static func steps(_ nodes: [YAMLNode], context: inout StepContext) throws(ScenarioError) -> [Step] {
        var out: [Step] = []
        for node in nodes { out.append(try step(node, context: &context)) }
        return out
    }

    static func step(_ node: YAMLNode, context: inout StepContext) throws(ScenarioError) -> Step {
        guard case .mapping(let entries) = node.value else {
            throw ScenarioError(.wrongType, at: node.location, "a step must be a mapping, found \(node.kindName)")
        }
        let verbEntries = entries.filter { $0.key != "name" }
        guard let verbEntry = verbEntries.first else {
            throw ScenarioError(.unknownStep, at: node.location, "a step needs a verb, one of: \(verbList)")
        }
        guard verbEntries.count == 1 else {
            throw ScenarioError(
                .ambiguousStep, at: verbEntries[1].keyLocation,
                "a step has exactly one verb; found '\(verbEntries[0].key)' and '\(verbEntries[1].key)'")
        }
        guard let verb = StepVocabulary.verb(named: verbEntry.key) else {
            let hint = Fields.closest(to: verbEntry.key, in: StepVocabulary.verbs.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            throw ScenarioError(.unknownStep, at: verbEntry.keyLocation, "unknown step '\(verbEntry.key)'\(hint); steps are: \(verbList)")
        }
        var name: String?
        if let nameNode = entries.first(where: { $0.key == "name" })?.value {
            let stepName = try nameNode.string("step name")
            try checkUnique(stepName, at: nameNode.location, among: context.stepNames, what: "step name")
            name = stepName
        }
        let argument = verbEntry.value
        var substeps: [Step] = []
        var fields: Fields?
        switch verb.shape {
        case .steps:
            substeps = try steps(try argument.list(verb.name), context: &context)
        case .fields(let specs):
            fields = try check(argument, verb: verb, specs: specs, context: context)
        case .word(let words):
            _ = try argument.word(verb.name, oneOf: words)
        }
        let action: StepAction
        do {
            action = try verb.decode(StepFields(fields: fields, substeps: substeps, stepName: name, members: context.members))
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw ScenarioError(.invalidValue, at: argument.location, "step '\(verb.name)': \(error)")
        }
        // Registered after its body so that a step cannot refer to itself.
        if let name { context.stepNames.append(name) }
        return Step(name: name, verb: verb.name, action: action, requirement: verb.requirement, location: node.location)
    }

    static func check(_ node: YAMLNode, verb: StepVerb, specs: [FieldSpec], context: StepContext) throws(ScenarioError) -> Fields {
        let f = try check(node, of: "step '\(verb.name)'", owner: verb.name, specs: specs, context: context)
        try verb.crossCheck?(node)
        return f
    }

    @discardableResult
    static func check(
        _ node: YAMLNode, of description: String, owner: String, specs: [FieldSpec], context: StepContext
    ) throws(ScenarioError) -> Fields {
        let f = try node.fields(
            of: description, allowed: specs.map(\.name), required: specs.filter(\.required).map(\.name))
        for spec in specs {
            guard let value = f[spec.name] else { continue }
            let what = "'\(spec.name)' of \(owner)"
            switch spec.type {
            case .member: _ = try references(value, what, kind: "member", known: context.members, single: true)
            case .members: _ = try references(value, what, kind: "member", known: context.members)
            case .relay: _ = try references(value, what, kind: "relay", known: context.relays, single: true)
            case .relays: _ = try references(value, what, kind: "relay", known: context.relays)
            case .text: _ = try value.string(what)
            case .integer(let range): _ = try value.integer(what, in: range)
            case .boolean: _ = try value.boolean(what)
            case .duration: _ = try value.duration(what)
            case .word(let words): _ = try value.word(what, oneOf: words)
            case .words(let words):
                let items: [YAMLNode] = if case .sequence(let list) = value.value { list } else { [value] }
                for item in items { _ = try item.word(what, oneOf: words) }
            case .stepName: _ = try references(value, what, kind: "step", known: context.stepNames, single: true)
            case .tags: _ = try value.tags(what)
            case .fields(let nested):
                try check(value, of: what, owner: "\(owner) \(spec.name)", specs: nested, context: context)
            case .expectations:
                guard case .mapping(let entries) = value.value else {
                    throw ScenarioError(.wrongType, at: value.location, "\(what) must be a mapping of member labels")
                }
                for entry in entries {
                    _ = try references(
                        YAMLNode(value: .scalar(entry.key, quoted: false), location: entry.keyLocation), what, kind: "member",
                        known: context.members, single: true)
                }
            }
        }
        return f
    }

    static func references(
        _ node: YAMLNode, _ what: String, kind: String, known: [String], single: Bool = false
    ) throws(ScenarioError) -> [String] {
        let items: [YAMLNode]
        if case .sequence(let list) = node.value {
            guard !single else { throw ScenarioError(.wrongType, at: node.location, "\(what) must name one \(kind), found a list") }
            items = list
        } else {
            items = [node]
        }
        var names: [String] = []
        for item in items {
            let text = try item.string(what)
            if !single, let range = LabelRange(text) {
                // A run such as m001..m149: every label of it must be declared.
                for name in range.labels where !known.contains(name) {
                    throw ScenarioError(.unknownReference, at: item.location, "unknown \(kind) '\(name)' in the run '\(text)' of \(what)")
                }
                names += range.labels
                continue
            }
            let name = text
            guard known.contains(name) else {
                let hint = Fields.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                let declared = known.isEmpty ? "none are declared" : "declared: \(known.joined(separator: ", "))"
                throw ScenarioError(.unknownReference, at: item.location, "unknown \(kind) '\(name)' in \(what)\(hint); \(declared)")
            }
            names.append(name)
        }
        return names
    }

    static func checkUnique(_ name: String, at location: SourceLocation, among existing: [String], what: String) throws(ScenarioError) {
        guard !existing.contains(name) else {
            throw ScenarioError(.duplicateName, at: location, "duplicate \(what) '\(name)'")
        }
    }

    static var verbList: String { StepVocabulary.verbs.map(\.name).joined(separator: ", ") }
}
