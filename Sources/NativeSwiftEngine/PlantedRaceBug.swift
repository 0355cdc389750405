// A race bug planted on purpose, for the schedule explorer's own proof (docs/explore.md): with the
// switch on, a commit received from another member becomes final at once (no rollback point), so
// a better competing commit (MIP-03: earlier created_at, then smaller id) arriving after it no
// longer replaces it. Committers still yield correctly (their own commit keeps its rollback point);
// only a third member who happens to receive the losing commit first keeps it and forks. Whether
// that happens depends on the order the relay and the member receive the two commits: a bug that
// seeds rarely show and `explore` must find. Task-local and off everywhere outside that test.

/// Test-only switches for deliberately wrong engine behaviour.
package enum PlantedRaceBug {
    /// A received commit keeps no rollback point: first seen wins a MIP-03 race (wrong).
    @TaskLocal package static var receivedCommitIsFinal = false
}
