// The JSON Schema of scenario files, generated from the same tables the loader enforces
// (`StepVocabulary`, `Scenario`'s word lists), so that editors and the runner agree.
import Foundation

package enum ScenarioSchema {
    /// The schema as pretty-printed JSON with sorted keys (stable, so it can be committed and diffed).
    package static func json() -> String {
        let data = try! JSONSerialization.data(  // the document is built from literals only
            withJSONObject: document(), options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func document() -> [String: Any] {
        [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://marmot-conform.invalid/scenarios/schema.json",
            "title": "marmot-conform scenario",
            "description": "A conformance scenario: members, relays, steps and expectations. See docs/scenarios.md.",
            "type": "object",
            "additionalProperties": false,
            "required": ["name", "members", "steps"],
            "properties": [
                "name": ["type": "string", "description": "What the scenario proves, in a few words."],
                "description": ["type": "string"],
                "clauses": ["type": "array", "items": ["type": "string"], "description": "Spec clauses the scenario covers."],
                "vector": ["type": "boolean", "description": "Store the outcome as vectors/scenarios/<name>.json (default true)."],
                "profiles": [
                    "type": "array", "items": ["enum": ProfileName.allCases.map(\.rawValue)], "minItems": 1, "uniqueItems": true,
                    "description":
                        "The Marmot profiles the scenario applies to (default: all); a run under another profile reports it as not applicable.",
                ] as [String: Any],
                "relays": ["type": "array", "items": relay],
                "members": ["type": "array", "items": member],
                "steps": ["$ref": "#/$defs/steps"],
                "expect": ["type": "object", "description": "Expected outcome, checked by the oracles."],
            ] as [String: Any],
            "$defs": definitions(),
        ]
    }

    static var relay: [String: Any] {
        [
            "type": "object", "additionalProperties": false, "required": ["name"],
            "properties": [
                "name": ["type": "string"],
                "roles": ["type": "array", "items": ["enum": RelayRoleName.allCases.map(\.rawValue)]],
                "policies": ["type": "array", "items": ["enum": RelayPolicyName.allCases.map(\.rawValue)]],
                "max-event-bytes": [
                    "type": "integer", "minimum": Scenario.relayEventLimitRange.lowerBound,
                    "maximum": Scenario.relayEventLimitRange.upperBound,
                    "description": "The largest event the relay stores, as its NIP-11 document says; default 65536.",
                ] as [String: Any],
                "max-results": [
                    "type": "integer", "minimum": Scenario.relayResultLimitRange.lowerBound,
                    "maximum": Scenario.relayResultLimitRange.upperBound,
                    "description": "Stored events served for a filter without limit (the newest); default: all.",
                ] as [String: Any],
            ] as [String: Any],
        ]
    }

    static var member: [String: Any] {
        [
            "type": "object", "additionalProperties": false, "required": ["label"],
            "properties": [
                "label": ["type": "string"],
                "engine": ["enum": EngineName.allCases.map(\.rawValue)],
                "profile": [
                    "enum": ProfileName.allCases.map(\.rawValue),
                    "description": "The Marmot profile the member's engine speaks (default: the run's --profile).",
                ],
                "name": ["type": "string", "description": "Profile name (kind 0)."],
                "relays": nameOrNames,
                "publishes-key-package": ["type": "boolean", "description": "False: the member never publishes a key package."],
                "merges-own-commit": [
                    "enum": OwnCommitMergeName.allCases.map(\.rawValue),
                    "description":
                        "as-received (default): an accepted commit goes to the engine as its event, keeping a rollback point; plain: the engine's merge_pending_commit, MDK's documented flow.",
                ] as [String: Any],
                "unverified-group-events": [
                    "type": "boolean", "description": "Engine probe: kind-445 events failing Nostr verification go to the engine.",
                ],
                "retained-event-ids": [
                    "type": "integer", "minimum": Scenario.retainedEventIDRange.lowerBound,
                    "maximum": Scenario.retainedEventIDRange.upperBound,
                    "description":
                        "Engine test knob: an engine that has it (ours) remembers this many wrapper ids per group instead of its cap (4096).",
                ] as [String: Any],
                "protected-key-package": [
                    "type": "boolean", "description": "True: the member's key package carries the NIP-70 [\"-\"] tag.",
                ],
                "invitations": [
                    "enum": InvitationAnswerName.allCases.map(\.rawValue),
                    "description":
                        "automatic (default): welcomes are joined as they arrive; ask: each waits as an invitation until accept-invitation or decline-invitation.",
                ],
                "picture": ["type": "string", "description": "Profile picture URL (kind 0 `picture`); none by default."],
                "chat-relay": [
                    "enum": ChatRelayConductName.allCases.map(\.rawValue),
                    "description": "The member is a chat relay that forwards channel broadcasts this way.",
                ],
                "update-delivery": [
                    "type": "array", "items": ["enum": UpdateDeliveryName.allCases.map(\.rawValue)],
                    "description":
                        "The channel from the member's core to its UI host duplicates, reorders or drops updates (seeded); the host oracle checks the host's rules keep its view equal to the core's state.",
                ] as [String: Any],
                "count": [
                    "type": "integer", "minimum": 1, "maximum": Scenario.maximumMemberCount,
                    "description": "Declares this many members, label + zero-padded number (m001…m149); lists name runs as m001..m149.",
                ] as [String: Any],
            ] as [String: Any],
        ]
    }

    static var nameOrNames: [String: Any] { ["oneOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]] }

    static func definitions() -> [String: Any] {
        var defs: [String: Any] = [
            "steps": ["type": "array", "items": ["$ref": "#/$defs/step"]],
            "duration": ["type": "string", "pattern": "^([0-9]+(ms|s|m|h))+$"],
            "step": [
                "type": "object",
                "description": "A step: an optional name and exactly one verb.",
                "properties": ["name": ["type": "string"]],
                "oneOf": StepVocabulary.verbs.map { verb in
                    ["required": [verb.name], "properties": [verb.name: ["$ref": "#/$defs/verb-\(verb.name)"]]] as [String: Any]
                },
                "propertyNames": ["enum": ["name"] + StepVocabulary.verbs.map(\.name)],
            ] as [String: Any],
        ]
        for verb in StepVocabulary.verbs {
            defs["verb-\(verb.name)"] = verbSchema(verb)
        }
        return defs
    }

    static func verbSchema(_ verb: StepVerb) -> [String: Any] {
        switch verb.shape {
        case .steps:
            return ["description": verb.summary, "$ref": "#/$defs/steps"]
        case .fields(let specs):
            return fieldsSchema(specs, summary: verb.summary)
        case .word(let words):
            return ["description": verb.summary, "enum": words]
        }
    }

    static func fieldsSchema(_ specs: [FieldSpec], summary: String?) -> [String: Any] {
        var schema: [String: Any] = [
            "type": "object", "additionalProperties": false,
            "properties": Dictionary(uniqueKeysWithValues: specs.map { ($0.name, fieldSchema($0.type)) }),
        ]
        let required = specs.filter(\.required).map(\.name)
        if !required.isEmpty { schema["required"] = required }
        if let summary { schema["description"] = summary }
        return schema
    }

    static func fieldSchema(_ type: FieldType) -> [String: Any] {
        switch type {
        case .member, .relay, .text, .stepName: return ["type": "string"]
        case .members, .relays: return nameOrNames
        case .integer(let range): return ["type": "integer", "minimum": range.lowerBound, "maximum": range.upperBound]
        case .boolean: return ["type": "boolean"]
        case .duration: return ["$ref": "#/$defs/duration"]
        case .expectations: return ["type": "object", "description": "Member label → expected fields (see docs/scenarios.md)."]
        case .word(let words): return ["enum": words]
        case .words(let words): return ["oneOf": [["enum": words], ["type": "array", "items": ["enum": words]]]]
        case .tags: return ["type": "array", "items": ["type": "array", "items": ["type": "string"]]]
        case .fields(let specs): return fieldsSchema(specs, summary: nil)
        }
    }
}
