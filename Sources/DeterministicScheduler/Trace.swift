// The record of a run: every delivery, fault and decision, in order, with a running fingerprint.
// Two runs of the same scenario and seed must produce the same fingerprint; when they do not, the
// first differing entry shows where they parted.

/// One line of a run's trace.
package struct TraceEntry: Hashable, Sendable, CustomStringConvertible {
    /// Position in the trace, from 0.
    package let index: Int
    /// Virtual time at which it happened.
    package let time: VirtualInstant
    /// What kind of record this is, e.g. `deliver`, `fault`, `decide`, `relay`.
    package let category: String
    /// Who or what it concerns, e.g. `relay-a`, `alice`.
    package let subject: String
    /// Free text; part of the fingerprint, so it must itself be deterministic.
    package let detail: String

    package var description: String { "[\(index)] \(time) \(category) \(subject): \(detail)" }
}

/// An append-only run record with a 128-bit FNV-1a fingerprint over all entries.
///
/// Each entry is absorbed as the length-prefixed fields (time in microseconds as decimal text,
/// category, subject, detail), so the fingerprint depends on exact order and content.
package struct Trace: Hashable, Sendable {
    /// Every entry so far, unless created with `keepsEntries: false` (benchmarks keep only the hash).
    package private(set) var entries: [TraceEntry] = []
    /// Number of entries recorded, kept or not.
    package private(set) var count = 0
    /// Whether `entries` retains the records.
    package let keepsEntries: Bool
    private var hasher = FNV1a128()

    /// An empty trace.
    package init(keepsEntries: Bool = true) { self.keepsEntries = keepsEntries }

    /// Appends an entry.
    package mutating func record(at time: VirtualInstant, _ category: String, _ subject: String, _ detail: String) {
        hasher.absorbField(String(time.microseconds))
        hasher.absorbField(category)
        hasher.absorbField(subject)
        hasher.absorbField(detail)
        if keepsEntries {
            entries.append(TraceEntry(index: count, time: time, category: category, subject: subject, detail: detail))
        }
        count += 1
    }

    /// The fingerprint of everything recorded so far (32 hex digits).
    package var fingerprint: String { hasher.hex }

    /// The first entry where two traces differ, or nil when one is a prefix of the other.
    package func firstDivergence(from other: Trace) -> (TraceEntry?, TraceEntry?)? {
        for (mine, theirs) in zip(entries, other.entries) where mine != theirs {
            return (mine, theirs)
        }
        if entries.count == other.entries.count { return nil }
        let shorter = min(entries.count, other.entries.count)
        return (entries.dropFirst(shorter).first, other.entries.dropFirst(shorter).first)
    }
}
