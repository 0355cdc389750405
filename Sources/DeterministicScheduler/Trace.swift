// The record of a run: every delivery, fault and decision, in order, with a running fingerprint.
// Two runs of the same scenario and seed must produce the same fingerprint; when they do not, the
// first differing entry shows where they parted.

/// One line of a run's trace.
public struct TraceEntry: Hashable, Sendable, CustomStringConvertible {
    /// Position in the trace, from 0.
    public let index: Int
    /// Virtual time at which it happened.
    public let time: VirtualInstant
    /// What kind of record this is, e.g. `deliver`, `fault`, `decide`, `relay`.
    public let category: String
    /// Who or what it concerns, e.g. `relay-a`, `alice`.
    public let subject: String
    /// Free text; part of the fingerprint, so it must itself be deterministic.
    public let detail: String

    public var description: String { "[\(index)] \(time) \(category) \(subject): \(detail)" }
}

/// An append-only run record with a 128-bit FNV-1a fingerprint over all entries.
///
/// Each entry is absorbed as the length-prefixed fields (time in microseconds as decimal text,
/// category, subject, detail), so the fingerprint depends on exact order and content.
public struct Trace: Hashable, Sendable {
    /// Every entry so far, unless created with `keepsEntries: false` (benchmarks keep only the hash).
    public private(set) var entries: [TraceEntry] = []
    /// Number of entries recorded, kept or not.
    public private(set) var count = 0
    /// Whether `entries` retains the records.
    public let keepsEntries: Bool
    private var hasher = FNV1a128()

    /// An empty trace.
    public init(keepsEntries: Bool = true) { self.keepsEntries = keepsEntries }

    /// Appends an entry.
    public mutating func record(at time: VirtualInstant, _ category: String, _ subject: String, _ detail: String) {
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
    public var fingerprint: String { hasher.hex }

    /// The first entry where two traces differ, or nil when one is a prefix of the other.
    public func firstDivergence(from other: Trace) -> (TraceEntry?, TraceEntry?)? {
        for (mine, theirs) in zip(entries, other.entries) where mine != theirs {
            return (mine, theirs)
        }
        if entries.count == other.entries.count { return nil }
        let shorter = min(entries.count, other.entries.count)
        return (entries.dropFirst(shorter).first, other.entries.dropFirst(shorter).first)
    }
}
