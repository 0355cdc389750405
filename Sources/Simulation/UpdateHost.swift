import DeterministicScheduler
import GroupCore

// The host side of GroupCore's one-way data flow (docs/architecture.md, "The host and `rev`"):
// a UI receives `AppUpdate`s over a channel it does not control (an FFI callback queue, a
// process boundary) and keeps its own view. The core promises `rev = previous + 1`; the host
// promises to keep its view equal to the core's state by two rules, whatever the channel does:
//
//   stale:  an update with rev <= last_rev is dropped (a duplicate, or one overtaken)
//   gap:    an update with rev >  last_rev + 1 means one was lost: read `state()` whole (resync)
//   else:   apply it (rev = last_rev + 1)
//
// The world runs one host per member. A scenario may make the channel to one host duplicate,
// reorder or drop updates (`update-delivery`), drawn from a seeded stream of its own, so that the
// rules are exercised and the oracle "host view" can see whether they hold.

/// A way the channel from a core to its host misbehaves.
package enum UpdatePerturbation: String, Hashable, Sendable, CaseIterable {
    /// The update arrives, and again after the next one (a late duplicate).
    case duplicate
    /// The update is held and arrives after the next one (overtaken).
    case reorder
    /// The update never arrives (unless it was the last of the run: see `UpdateChannel.close`).
    case drop
}

/// The rules a host follows. `documented` is the product's; the others are test seams (the host
/// oracle's twins), never reachable from a scenario file.
package enum UpdateHostRules: Hashable, Sendable {
    case documented
    /// Applies every update as it comes, stale ones included (the view can go back in time).
    case appliesStale
}

/// What the host did with one delivered update.
package enum HostDecision: Hashable, Sendable {
    case applied
    case droppedStale
    case resync
}

/// A UI host's view of one member's core, kept by the rules above.
package struct UpdateHost: Sendable {
    package let rules: UpdateHostRules
    /// What the UI shows (starts as the empty state the core starts with, rev 0).
    package private(set) var view = AppState()
    package private(set) var lastRev: UInt64 = 0
    package private(set) var applied = 0
    package private(set) var staleDropped = 0
    package private(set) var resyncs = 0
    /// Times the view's rev went down (only a host ignoring the stale rule does that).
    package private(set) var regressions: [String] = []

    package init(rules: UpdateHostRules = .documented) { self.rules = rules }

    /// Decides what to do with `update`; a resync is carried out by the caller (`resynced`).
    package mutating func receive(_ update: AppUpdate) -> HostDecision {
        if update.rev <= lastRev, rules != .appliesStale {
            staleDropped += 1
            return .droppedStale
        }
        if update.rev > lastRev + 1, rules == .documented {
            // Updates carry whole states today, so applying this one would show the right state;
            // the resync is the rule because a host must not rely on that (a diffing host would
            // miss what the lost update changed), and it costs one read per loss.
            return .resync
        }
        take(update.state, rev: update.rev)
        applied += 1
        return .applied
    }

    /// The whole state, read after a gap.
    package mutating func resynced(_ state: AppState) {
        resyncs += 1
        take(state, rev: state.rev)
    }

    private mutating func take(_ state: AppState, rev: UInt64) {
        if rev < lastRev { regressions.append("\(lastRev) → \(rev)") }
        view = state
        lastRev = rev
    }
}

/// The channel from one core to its host: in order and whole by default; with perturbations, each
/// update meets at most one of them, drawn from the world's seeded stream for this host.
package struct UpdateChannel: Sendable {
    package let perturbations: [UpdatePerturbation]
    private var stream: SeededGenerator
    /// Updates to arrive after the next one (reordered ones, late duplicates).
    private var held: [AppUpdate] = []
    /// The last update offered was dropped: if nothing follows it, the channel hands it over when
    /// it closes (no rule can notice a loss nothing follows).
    private var droppedLast: AppUpdate?

    package init(perturbations: [UpdatePerturbation], stream: SeededGenerator) {
        self.perturbations = perturbations
        self.stream = stream
    }

    /// What arrives at the host when the core emits `update`, in arrival order, with what befell it.
    package mutating func offer(_ update: AppUpdate) -> (arrivals: [AppUpdate], fate: String?) {
        droppedLast = nil
        let overdue = held
        held = []
        guard !perturbations.isEmpty else { return ([update] + overdue, nil) }
        // One in two updates meets a perturbation, chosen evenly among those asked for.
        guard stream.next() % 2 == 0 else { return ([update] + overdue, nil) }
        let perturbation = perturbations[Int(stream.next() % UInt64(perturbations.count))]
        switch perturbation {
        case .duplicate:
            held = [update]
            return ([update] + overdue, "duplicated")
        case .reorder:
            held = [update]
            return (overdue, "held back")
        case .drop:
            droppedLast = update
            return (overdue, "dropped")
        }
    }

    /// The end of the run: what is still held arrives, and so does a dropped last update.
    package mutating func close() -> [AppUpdate] {
        defer {
            held = []
            droppedLast = nil
        }
        return [droppedLast].compactMap { $0 } + held
    }
}
