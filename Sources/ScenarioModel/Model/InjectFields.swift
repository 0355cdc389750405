// The fields of the `inject` step, which puts a raw Nostr event (NIP-01) into the world: crafted
// from scratch, or copied from an event a member published earlier, optionally altered and
// optionally broken after signing, as a forging client or a corrupting relay would.
//
//   - name: forged copy
//     inject:
//       relay: group                          # where it is published (or, with `to`, where it seems to come from)
//       to: bob                               # hand it to bob's live subscriptions only, unverified
//       copy: { kind: 445, author: alice }    # the latest such event a member published
//       break: signature                      # signature | id | content | created-at

/// How an injected event is broken after it was signed.
package enum InjectBreakage: String, Sendable, CaseIterable {
    /// The signature is replaced by seeded random bytes (id kept).
    case signature
    /// The id is replaced by seeded random bytes (signature now signs something else).
    case id
    /// The content is altered after signing (id and signature stale).
    case content
    /// `created_at` moves one second later after signing (id and signature stale).
    case createdAt = "created-at"
}

enum InjectFields {
    /// Selects the event to copy among those members published: the latest by default, or the
    /// `nth` (1-based, in publishing order).
    static let copy: [FieldSpec] = [
        FieldSpec("kind", .integer(0...65535)), FieldSpec("author", .member), FieldSpec("nth", .integer(1...1_000_000)),
    ]

    static let all: [FieldSpec] = [
        FieldSpec("relay", .relay, required: true),
        FieldSpec("to", .member),
        FieldSpec("author", .member),
        FieldSpec("copy", .fields(copy)),
        FieldSpec("kind", .integer(0...65535)),
        FieldSpec("content", .text),
        FieldSpec("tags", .tags),
        FieldSpec("remove-tag", .text),
        FieldSpec("age", .duration),
        FieldSpec("expires-in", .duration),
        FieldSpec("break", .word(InjectBreakage.allCases.map(\.rawValue))),
    ]
}

extension InjectFields {
    /// An injected event is either a copy or crafted from scratch, which needs a kind.
    static func checkSource(_ node: YAMLNode) throws(ScenarioError) {
        guard case .mapping(let entries) = node.value else { return }
        let keys = entries.map(\.key)
        guard keys.contains("copy") || keys.contains("kind") else {
            throw ScenarioError(
                .missingField, at: node.location, "step 'inject' needs 'kind' (a crafted event) or 'copy' (a copy of an earlier event)")
        }
    }
}

extension InjectFields {
    static func decode(_ f: StepFields) throws(ScenarioError) -> InjectStep {
        let copy = f.nested("copy")
        return InjectStep(
            relay: try f.string("relay"), to: try f.optionalString("to"), author: try f.optionalString("author"),
            copy: try copy.map { c throws(ScenarioError) in
                InjectStep.CopySelector(
                    kind: try c.optionalKind("kind"), author: try c.optionalString("author"),
                    nth: try c.optionalInteger("nth", in: 1...1_000_000).map { Int($0) })
            },
            kind: try f.optionalKind("kind"), content: try f.optionalString("content"), tags: try f.optionalTags("tags"),
            removeTag: try f.optionalString("remove-tag"), age: try f.optionalDuration("age"),
            expiresIn: try f.optionalDuration("expires-in"), breakage: try f.optionalWord("break", as: InjectBreakage.self))
    }
}
