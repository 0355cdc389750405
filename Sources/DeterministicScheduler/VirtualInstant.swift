// Virtual time for a simulated world. Time zero is the start of a run; `VirtualClock` maps it to
// Unix seconds so that Nostr `created_at` values come from the world, never from the wall clock.

/// A point on a world's virtual timeline, in microseconds since the start of the run.
package struct VirtualInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the start of the run.
    package var microseconds: UInt64

    /// The instant `microseconds` after the start of the run.
    package init(microseconds: UInt64) { self.microseconds = microseconds }

    /// The start of the run.
    package static let zero = VirtualInstant(microseconds: 0)

    /// Whole seconds since the start of the run (rounded down).
    package var seconds: UInt64 { microseconds / 1_000_000 }

    /// This instant moved forward by `duration`; saturates instead of overflowing, because durations
    /// may come from scenario files.
    package func advanced(by duration: VirtualDuration) -> VirtualInstant {
        let (sum, overflow) = microseconds.addingReportingOverflow(duration.microseconds)
        return VirtualInstant(microseconds: overflow ? .max : sum)
    }

    package static func < (lhs: VirtualInstant, rhs: VirtualInstant) -> Bool { lhs.microseconds < rhs.microseconds }

    /// `seconds.micro` with six fractional digits, e.g. `12.000250`.
    package var description: String {
        let fraction = String(microseconds % 1_000_000)
        return "\(seconds)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// A non-negative span of virtual time, in microseconds.
package struct VirtualDuration: Hashable, Comparable, Sendable {
    /// Length of the span in microseconds.
    package var microseconds: UInt64

    /// A span of `microseconds`.
    package init(microseconds: UInt64) { self.microseconds = microseconds }

    /// No time at all.
    package static let zero = VirtualDuration(microseconds: 0)

    /// A span of whole seconds; saturates on overflow.
    package static func seconds(_ value: UInt64) -> VirtualDuration {
        let (product, overflow) = value.multipliedReportingOverflow(by: 1_000_000)
        return VirtualDuration(microseconds: overflow ? .max : product)
    }

    /// A span of milliseconds; saturates on overflow.
    package static func milliseconds(_ value: UInt64) -> VirtualDuration {
        let (product, overflow) = value.multipliedReportingOverflow(by: 1_000)
        return VirtualDuration(microseconds: overflow ? .max : product)
    }

    package static func < (lhs: VirtualDuration, rhs: VirtualDuration) -> Bool { lhs.microseconds < rhs.microseconds }
}

/// The world's clock: a current instant plus the Unix time that instant zero stands for.
package struct VirtualClock: Hashable, Sendable {
    /// Unix seconds of `VirtualInstant.zero`.
    package let epochUnixSeconds: UInt64
    /// The current virtual instant; only moves forward.
    package private(set) var now: VirtualInstant

    /// A clock at instant zero whose Unix time is `epochUnixSeconds`.
    package init(epochUnixSeconds: UInt64) {
        self.epochUnixSeconds = epochUnixSeconds
        self.now = .zero
    }

    /// The current Unix time in whole seconds, as used for Nostr `created_at` and NIP-40 checks.
    package var unixSeconds: UInt64 {
        let (sum, overflow) = epochUnixSeconds.addingReportingOverflow(now.seconds)
        return overflow ? .max : sum
    }

    /// Moves the clock to `instant`; an instant in the past leaves it unchanged, since virtual time
    /// never runs backwards.
    package mutating func advance(to instant: VirtualInstant) {
        if instant > now { now = instant }
    }

    /// Moves the clock forward by `duration`.
    package mutating func advance(by duration: VirtualDuration) {
        now = now.advanced(by: duration)
    }
}
