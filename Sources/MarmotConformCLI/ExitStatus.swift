// Exit statuses, the same for every command, documented in `--help` and docs/scenarios.md.
import ArgumentParser

enum ExitStatus {
    /// Nothing failed.
    static let success = ExitCode(0)
    /// A check failed (`run`), a scenario file is invalid (`run`, `validate`, `list`), or the
    /// failure reproduced (`replay`).
    static let failure = ExitCode(1)
    /// `replay` only: the recorded failures did not reproduce (different checks fail, or none).
    static let notReproduced = ExitCode(2)
    /// The command cannot start: bad options, a path that does not exist or holds no scenario, no
    /// repository found, a capsule that does not read (ArgumentParser's usage status, EX_USAGE).
    static let usage = ExitCode.validationFailure

    static let help = """
        Exit status (every command):
          0   nothing failed
          1   a check failed, or a scenario file is invalid (run, validate, list); replay: the failure reproduced
          2   replay: the recorded failures did not reproduce
          64  usage: bad options, a missing path, a path with no scenario, no repository, an unreadable capsule
        An infrastructure failure (an engine or driver that does not start or answer) is never a pass: it exits non-zero.
        """
}

/// Stops a command before it runs anything: prints `marmot-conform: <message>` on stderr and
/// returns the usage status to throw.
func usageError(_ message: String) -> ExitCode {
    Console.error("marmot-conform: \(message)")
    return ExitStatus.usage
}
