// The CI sample: the conformance gate runs every scenario on three engine selections, twice each,
// and MDK runs take seconds per cell, so the gate runs a deterministic sample of the matrix (listed
// in scenarios/fault-matrix/ci-sample.txt, read by ci/conformance); the whole matrix runs locally.
extension FaultMatrix {
    /// How many cells the gate runs: each costs about 26 s there (MDK, mixed and swift, twice each;
    /// measured on a loaded machine, debug build), so the sample adds about 6 minutes.
    static let ciSampleSize = 14

    /// Rounds over the fault kinds; each takes the next cell of that kind from the flow used least
    /// so far (table order breaks ties). Open cells never enter: the gate must pass; nor do cells of
    /// a ledgered MDK defect: the sample is there to prove recovery that holds on every engine.
    static func ciSample() -> [Cell] {
        let candidates = cells().filter { $0.open == nil && $0.mdkDefect == nil }
        var chosen: [Cell] = []
        var uses: [String: Int] = [:]
        var progressed = true
        while chosen.count < ciSampleSize && progressed {
            progressed = false
            for fault in Fault.allCases where chosen.count < ciSampleSize {
                let options = candidates.filter { cell in cell.fault == fault && !chosen.contains { $0.path == cell.path } }
                guard let pick = options.min(by: { uses[$0.flow.name, default: 0] < uses[$1.flow.name, default: 0] }) else { continue }
                chosen.append(pick)
                uses[pick.flow.name, default: 0] += 1
                progressed = true
            }
        }
        return chosen
    }

    /// The sample as ci/conformance reads it: one scenario path a line.
    static func ciSampleList() -> File {
        File(path: "\(folder)/ci-sample.txt", text: ciSample().map(\.path).sorted().joined(separator: "\n") + "\n")
    }

    /// The matrix is a family with a CI line of its own: its marker file keeps it out of a run of all
    /// of `scenarios/` (the gate runs the sample above; `run scenarios/fault-matrix` runs every cell,
    /// the open ones included, which fail until their defects are fixed).
    static func separateLineMarker() -> File {
        File(
            path: "\(folder)/SEPARATE-CI-LINE",
            text: """
                The fault matrix (docs/fault-matrix.md) is not run whole by the default gate: `marmot-conform run`
                with no path, or on all of scenarios/, leaves this folder out. ci/conformance runs the deterministic
                sample in ci-sample.txt on every engine selection; the whole matrix, open cells included (they fail
                until the defects they found are fixed), runs by naming it:
                  marmot-conform run scenarios/fault-matrix --engine swift --seeds 1..10

                """)
    }
}
