// The commits a cell's away member misses, drawn from a fixed cycle of kinds and made legal against
// the group as it is at that point (an add needs someone outside, a remove someone inside), and the
// state every member must reach once they have all been applied.
extension CatchUpDepth {
    /// The kinds of commit the family uses. Role changes below admin and preferences are control
    /// messages, not commits, so they are not here; giving or taking the admin role is (an
    /// update-group-data commit of the admin list, docs/group-core.md "Roles and permissions").
    enum Kind: String, Sendable {
        case rename, describe, add, remove
        case selfUpdate = "self-update"
        case promote, demote
    }

    /// One commit as a scenario step.
    package struct Commit: Sendable {
        package let by: String
        let kind: Kind
        /// The member added, removed, promoted or demoted; the new name or description.
        let argument: String?

        var step: String {
            switch kind {
            case .rename: "rename: { by: \(by), to: \(argument ?? "") }"
            case .describe: "describe: { by: \(by), to: \(argument ?? "") }"
            case .add: "add-members: { by: \(by), members: [\(argument ?? "")] }"
            case .remove: "remove-members: { by: \(by), members: [\(argument ?? "")] }"
            case .selfUpdate: "self-update: { by: \(by) }"
            case .promote: "set-role: { by: \(by), member: \(argument ?? ""), role: admin }"
            case .demote: "set-role: { by: \(by), member: \(argument ?? ""), role: member }"
            }
        }

        var summary: String {
            switch kind {
            case .selfUpdate: "\(by) self-updates"
            case .rename: "\(by) renames to \(argument ?? "")"
            case .describe: "\(by) describes"
            default: "\(by) \(kind.rawValue)s \(argument ?? "")"
            }
        }
    }

    /// A commit on its own, or two made in the same epoch by two admins.
    package enum Stage: Sendable {
        case single(Commit)
        case race(Commit, Commit)

        package var commits: [Commit] {
            switch self {
            case .single(let commit): [commit]
            case .race(let first, let second): [first, second]
            }
        }
    }

    /// The group as the commits leave it.
    package struct Group: Sendable {
        package var members = Set(["alice", "bob", "carol", "dave", "erin"])
        var admins = Set(["alice", "bob", "dave"])
        /// Everyone who was ever in the group and is no longer.
        package var removed = Set<String>()
        var name = "Team"
        var description: String?
        /// The last rename, when a race between two renames decides it (the stage's index).
        var nameRace: Int?
        var renames = 0
        var descriptions = 0
        /// Members made admin by a missed commit (taken back by `demote`).
        var promoted: [String] = []

        mutating func apply(_ commit: Commit, race: Int?) {
            guard let argument = commit.argument else { return }
            switch commit.kind {
            case .rename:
                name = argument
                nameRace = race
                renames += 1
            case .describe:
                description = argument
                descriptions += 1
            case .add:
                members.insert(argument)
                removed.remove(argument)
            case .remove:
                members.remove(argument)
                removed.insert(argument)
            case .promote:
                admins.insert(argument)
                promoted.append(argument)
            case .demote:
                admins.remove(argument)
                promoted.removeAll { $0 == argument }
            case .selfUpdate: break
            }
        }
    }

    /// The names the renames take, in order.
    static let names = ["Amber", "Birch", "Cedar", "Dune", "Elm", "Fern", "Grove", "Heath"]

    /// The cycle of single commits, started at a different kind for each away member so that
    /// even the shallow cells see different kinds.
    static let singleCycle: [Kind] = [.rename, .add, .selfUpdate, .remove, .promote, .describe, .demote, .add]

    /// The cycle of racing pairs. Only commits GroupCore makes again when they lose (add, remove,
    /// self-update) race something other than a rename; two renames race each other, so that the
    /// name is the MIP-03 winner's (a rename losing to an add would be superseded, and the family
    /// would have to leave the name unchecked).
    static let raceCycle: [(Kind, Kind)] = [(.add, .remove), (.selfUpdate, .add), (.rename, .rename), (.remove, .selfUpdate)]

    /// Where each away member's races start in the cycle: a removed erin's first pair holds a
    /// remove (her removal takes its slot), a re-added erin's first two pairs a remove, then an add.
    static let raceOffset: [Away: Int] = [.member: 2, .admin: 1, .removed: 3, .readded: 0]

    /// The commits of a cell and the state they lead to.
    package static func plan(_ cell: Cell) -> (stages: [Stage], group: Group) {
        var group = Group()
        var stages: [Stage] = []
        let away = cell.away.label
        // The kinds in order, one per commit; the removal (and re-addition) of an away erin replace
        // the slot of the same kind (remove, then the next add after it).
        var kinds: [Kind]
        if cell.spacing == .competing {
            let offset = raceOffset[cell.away] ?? 0
            kinds = (0..<cell.depth).map { i in
                let pair = raceCycle[(i / 2 + offset) % raceCycle.count]
                return i % 2 == 0 ? pair.0 : pair.1
            }
        } else {
            let offset = (cell.away.order * 2) % singleCycle.count
            kinds = (0..<cell.depth).map { singleCycle[($0 + offset) % singleCycle.count] }
        }
        var forced: [Int: Commit] = [:]
        if cell.away == .removed || cell.away == .readded {
            // A re-addition needs a later slot (in races, a later pair) than the removal.
            let limit = cell.away == .removed ? cell.depth : cell.depth - (cell.spacing == .competing ? 2 : 1)
            let removal = forcedSlot(Array(kinds.prefix(limit)), .remove, after: -1, cell: cell) ?? 0
            forced[removal] = Commit(by: committer(removal, cell), kind: .remove, argument: away)
            if cell.away == .readded {
                let minimum = cell.spacing == .competing ? (removal / 2) * 2 + 1 : removal
                let readd = forcedSlot(kinds, .add, after: minimum, cell: cell) ?? (cell.depth - 1)
                forced[readd] = Commit(by: committer(readd, cell), kind: .add, argument: away)
            }
        }
        var index = 0
        while index < cell.depth {
            if cell.spacing == .competing && index + 1 < cell.depth {
                // Both commits of a pair are made against the same group, on different members.
                let before = group
                let first =
                    forced[index] ?? resolve(kinds[index], by: committer(index, cell), in: before, away: away, cell: cell, avoiding: [])
                // The second is resolved as if the first had been applied (a second rename takes
                // the next name, a second add the next outsider), and never on the first's member.
                var afterFirst = before
                afterFirst.apply(first, race: nil)
                let touched = Set([first.argument].compactMap { $0 })
                let second =
                    forced[index + 1]
                    ?? resolve(kinds[index + 1], by: committer(index + 1, cell), in: afterFirst, away: away, cell: cell, avoiding: touched)
                let race = stages.count
                group.apply(first, race: race)
                group.apply(second, race: race)
                stages.append(.race(first, second))
                index += 2
            } else {
                let commit =
                    forced[index] ?? resolve(kinds[index], by: committer(index, cell), in: group, away: away, cell: cell, avoiding: [])
                group.apply(commit, race: nil)
                stages.append(.single(commit))
                index += 1
            }
        }
        return (stages, group)
    }

    /// The admin making commit `index`: the committers take turns, except in a burst, where each
    /// makes a run of consecutive commits. GroupCore lets a member wait for one commit at a time
    /// (`core.busy`), and in a group of several admins a commit asked for within a second of a
    /// received one waits for it to settle (docs/group-core.md, "Timing and races"), so commits of
    /// one second come from one admin; the runs of different admins are 5 s apart.
    static func committer(_ index: Int, _ cell: Cell) -> String {
        let labels = cell.committerLabels
        if cell.spacing == .sameSecond { return labels[index * labels.count / cell.depth] }
        return labels[index % labels.count]
    }

    /// The first slot of `kind` after `after`, or the first slot after it at all.
    static func forcedSlot(_ kinds: [Kind], _ kind: Kind, after: Int, cell: Cell) -> Int? {
        let later = kinds.indices.filter { $0 > after }
        return later.first { kinds[$0] == kind } ?? later.first { kinds[$0] != .rename } ?? later.first
    }

    /// Makes a commit of `kind` legal against `group`, or falls back to one that is.
    static func resolve(_ kind: Kind, by actor: String, in group: Group, away: String, cell: Cell, avoiding: Set<String>) -> Commit {
        let protected = avoiding.union([actor])
        switch kind {
        case .rename:
            return Commit(by: actor, kind: .rename, argument: names[group.renames % names.count])
        case .describe:
            return Commit(by: actor, kind: .describe, argument: "note-\(group.descriptions + 1)")
        case .add:
            // Never an away erin: only the forced re-addition brings her back.
            if let outsider = outsiders.first(where: {
                !group.members.contains($0) && !group.removed.contains($0) && !protected.contains($0)
            }) {
                return Commit(by: actor, kind: .add, argument: outsider)
            }
            return resolve(.selfUpdate, by: actor, in: group, away: away, cell: cell, avoiding: avoiding)
        case .remove:
            // A plain member present, not the away one (its removal is forced where the cell wants it).
            let candidates = outsiders + plainMembers
            if let target = candidates.first(where: {
                group.members.contains($0) && !group.admins.contains($0) && $0 != away && !protected.contains($0)
            }) {
                return Commit(by: actor, kind: .remove, argument: target)
            }
            return resolve(.selfUpdate, by: actor, in: group, away: away, cell: cell, avoiding: avoiding)
        case .selfUpdate:
            return Commit(by: actor, kind: .selfUpdate, argument: nil)
        case .promote:
            // Only an owner appoints admins (role.newRoleNotBelow): alice. The away plain member
            // when there is one (it must learn it is an admin now), else carol.
            let target = cell.away == .member ? away : "carol"
            if group.members.contains(target) && !group.admins.contains(target) && !protected.contains(target) {
                return Commit(by: "alice", kind: .promote, argument: target)
            }
            return resolve(.rename, by: actor, in: group, away: away, cell: cell, avoiding: avoiding)
        case .demote:
            if let target = group.promoted.last, group.members.contains(target), !protected.contains(target) {
                return Commit(by: "alice", kind: .demote, argument: target)
            }
            return resolve(.rename, by: actor, in: group, away: away, cell: cell, avoiding: avoiding)
        }
    }
}
