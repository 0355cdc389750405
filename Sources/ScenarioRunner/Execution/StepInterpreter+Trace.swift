// `run --trace`: the run's trace as it happens. After every step the interpreter hands the entries
// the step added (network and members merged in order, RunTrace) to the sink, so a person watching
// a slow run (MDK through its driver) sees it progress, and the trace of a run that hangs is there
// up to the step that hangs.

extension StepInterpreter {
    /// Hands the trace entries added since the last call to the `--trace` sink, in order.
    mutating func streamTrace() {
        guard let traceSink else { return }
        let lines = RunTrace.of(world)
        for line in lines.dropFirst(traceStreamed) { traceSink("  \(line)") }
        traceStreamed = lines.count
    }
}
