// The world verbs: the clock, deliveries, faults, injected events, and checks in mid-run.

extension StepVocabulary {
    static let worldVerbs: [StepVerb] = [
        StepVerb(name: "deliver", summary: "run the world until no delivery or timer is left", shape: .word(["all"])) { _ in .deliver },
        StepVerb(
            name: "advance", summary: "advance the virtual clock",
            shape: .fields([
                FieldSpec("by", .duration, required: true)
            ])
        ) { f in .advance(try f.duration("by")) },
        StepVerb(
            name: "fault", summary: "apply a fault to a relay, a member's link, or selected events",
            shape: .fields([
                FieldSpec("relay", .relay), FieldSpec("member", .member),
                FieldSpec("apply", .word(FaultKind.allCases.map(\.rawValue)), required: true),
                FieldSpec("kind", .integer(0...65535)), FieldSpec("author", .member), FieldSpec("nth", .integer(1...1_000_000)),
                FieldSpec("prefix", .text), FieldSpec("for", .duration),
                // Which way selected EVENT frames travel: members' publications (the default), or the
                // relay's deliveries to members (with `member`: what that member receives).
                FieldSpec("direction", .word(FaultStep.Direction.allCases.map(\.rawValue))),
            ]), crossCheck: FaultFields.checkSelector
        ) { f in
            .fault(
                FaultStep(
                    kind: try f.word("apply", as: FaultKind.self), relay: try f.optionalString("relay"),
                    member: try f.optionalString("member"),
                    eventKind: try f.optionalKind("kind"), author: try f.optionalString("author"),
                    nth: try f.optionalInteger("nth", in: 1...1_000_000).map { Int($0) }, prefix: try f.optionalString("prefix"),
                    duration: try f.optionalDuration("for"), direction: try f.optionalWord("direction", as: FaultStep.Direction.self)))
        },
        StepVerb(
            name: "restart", summary: "a member's app stops (its connections close) and starts again from its persisted state",
            shape: .fields([FieldSpec("member", .member, required: true), FieldSpec("down", .duration, required: true)])
        ) { f in .restart(member: try f.string("member"), down: try f.duration("down")) },
        StepVerb(
            name: "crash",
            summary:
                "arm a crash point: the member dies when it reaches it, losing what was not durable, and starts again `down` later; "
                + "`damage` leaves one group's durable record corrupt or missing at that start (the group named by `group`); "
                + "a list of members arms it on each, and only the first to reach it dies",
            shape: .fields([
                FieldSpec("member", .members, required: true),
                FieldSpec("at", .word(CrashPointName.allCases.map(\.rawValue)), required: true), FieldSpec("down", .duration),
                FieldSpec("damage", .word(CrashDamage.Kind.allCases.map(\.rawValue))), FieldSpec("group", .text),
            ])
        ) { f in
            let kind = try f.optionalWord("damage", as: CrashDamage.Kind.self)
            let group = try f.optionalString("group")
            if kind == nil, group != nil, let node = f.node("group") {
                throw ScenarioError(.invalidValue, at: node.location, "'group' names the group a crash damages: it needs 'damage'")
            }
            let members = try f.labels("member")
            if members.count != Set(members).count || members.isEmpty || (kind != nil && members.count > 1), let node = f.node("member") {
                throw ScenarioError(
                    .invalidValue, at: node.location, "'member' names distinct members, and only one when the crash damages a group")
            }
            return .crash(
                members: members, at: try f.word("at", as: CrashPointName.self),
                down: try f.optionalDuration("down") ?? ScenarioDuration(milliseconds: 5_000),
                damage: kind.map { CrashDamage(kind: $0, group: group) })
        },
        StepVerb(
            name: "release", summary: "release what a named hold step captured",
            shape: .fields([
                FieldSpec("hold", .stepName, required: true)
            ])
        ) { f in .release(hold: try f.string("hold")) },
        StepVerb(name: "parallel", summary: "logically concurrent steps whose interleaving the seed decides", shape: .steps) { f in
            .parallel(f.substeps)
        },
        StepVerb(
            name: "inject", summary: "publish a crafted, copied or deliberately broken event, or hand it to one member",
            shape: .fields(InjectFields.all), crossCheck: InjectFields.checkSource
        ) { f in .inject(try InjectFields.decode(f)) },
        StepVerb(
            name: "check", summary: "check expectations now, in the format of the expect section",
            shape: .fields([
                FieldSpec("converged", .boolean), FieldSpec("members", .expectations),
                // The named parallel block's renames raced: every member shows the MIP-03 winner's name.
                FieldSpec("race-winner", .stepName),
            ])
        ) { f in
            .check(
                CheckStep(
                    expectations: Expectations(
                        converged: try f.optionalFlag("converged"), decryptable: false, members: try f.memberExpectations("members")),
                    raceWinner: try f.optionalString("race-winner")))
        },
        StepVerb(
            name: "wait", summary: "run the world until a condition holds, failing after a virtual deadline",
            shape: .fields([
                FieldSpec("until", .word(WaitStep.Condition.allCases.map(\.rawValue)), required: true),
                FieldSpec("within", .duration, required: true),
                // Conditions that must not arise at any step while waiting (a `never` oracle).
                FieldSpec("never", .words(NeverCondition.allCases.map(\.rawValue))),
            ])
        ) { f in
            .wait(
                WaitStep(
                    until: try f.word("until", as: WaitStep.Condition.self), within: try f.duration("within"),
                    never: try f.words("never", as: NeverCondition.self)))
        },
    ]
}
