import ConformanceTestSupport
import EngineInterface
import ExternalProcessEngine
import ProcessSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The client's handling of drivers that misbehave, using /bin/sh scripts as stand-in drivers.
///
/// No test here depends on the machine's speed: a healthy stand-in answers as soon as it runs, and the
/// deadlines are on the driver's *progress* (output, CPU time), which a loaded machine slows but never
/// stops; only a driver that is idle on purpose (`cat > /dev/null`, `sleep`) runs into them.
@Suite struct DriverProcessTests {
    private func shell(_ script: String, silence: Duration = ProgressDeadline.defaultSilence) async -> DriverProcess {
        await DriverProcess.launch(executable: "/bin/sh", arguments: ["-c", script], deadline: ProgressDeadline(silence: silence))
    }

    @Test func driverExitNamesStatusAndStderrTail() async throws {
        let driver = await shell("echo 'fatal: engine library missing' >&2; exit 3")
        do {
            _ = try await driver.call(.hello)
            Issue.record("a dead driver answered")
        } catch {
            #expect(error.code == .driverDied)
            #expect(error.reason.contains("exited(3)"), "\(error.reason)")
            #expect(error.reason.contains("fatal: engine library missing"), "\(error.reason)")
        }
        // Later requests fail the same way instead of hanging.
        await #expect(throws: EngineError(.driverDied, "")) { try await driver.call(.groups) }
        await driver.shutdown()
    }

    @Test func silentIdleDriverTimesOut() async throws {
        let driver = await shell("cat > /dev/null", silence: .milliseconds(300))
        do {
            _ = try await driver.call(.hello)
            Issue.record("a silent driver answered")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.reason.contains("hello"), "\(error.reason)")
            #expect(error.reason.contains("no progress"), "\(error.reason)")
        }
        await driver.shutdown()
    }

    /// A driver that works (uses CPU) for longer than the silence span before answering is not timed out:
    /// the deadline is on progress, not on the wall clock. The stand-in burns 7 s of its own CPU time
    /// (however long that takes on this machine) against a 5 s silence span: a span of 2 s failed once
    /// when the whole test run and two scenario workers starved the stand-in of CPU for 2 s.
    @Test(.enabled(if: PythonVenv.interpreter != nil, "no .venv: run ci/setup"))
    func busyDriverIsNotTimedOut() async throws {
        let python = try #require(PythonVenv.interpreter).path
        let reply = #"{"id":1,"result":{"name":"x","version":"1","capabilities":[]}}"#
        let program = """
            import sys, time
            sys.stdin.readline()
            start = time.process_time()
            while time.process_time() - start < 7.0:
                pass
            print('\(reply)', flush=True)
            sys.stdin.read()
            """
        let driver = await DriverProcess.launch(
            executable: python, arguments: ["-c", program], deadline: ProgressDeadline(silence: .seconds(5)))
        let capabilities = try await driver.capabilities()
        #expect(capabilities.name == "x")
        await driver.shutdown()
    }

    /// A driver that keeps working forever without answering is still bounded by the deadline's limit.
    @Test func spinningDriverHitsTheLimit() async throws {
        let deadline = ProgressDeadline(silence: .seconds(30), limit: .milliseconds(500))
        let driver = await DriverProcess.launch(
            executable: "/bin/sh", arguments: ["-c", "read request; while :; do :; done"], deadline: deadline)
        do {
            _ = try await driver.call(.hello)
            Issue.record("a spinning driver answered")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.reason.contains("keeps running"), "\(error.reason)")
        }
        if let pid = await driver.pid { kill(pid, SIGKILL) }
        await driver.shutdown()
    }

    @Test func responseThatIsNotJSONIsMalformed() async throws {
        let driver = await shell("read request; echo 'this is not a response'; cat > /dev/null")
        await #expect(throws: EngineError(.malformedResponse, "")) { try await driver.call(.hello) }
        await driver.shutdown()
    }

    /// A reply for an id nobody waits for fails the pending request at once instead of leaving it to wait.
    @Test func responseWithUnknownIDIsMalformedAtOnce() async throws {
        let reply = #"{"id":42,"result":{}}"#
        // The driver then idles for good: only an immediate failure can end the call before the silence span.
        let driver = await shell("read request; echo '\(reply)'; cat > /dev/null", silence: .seconds(600))
        do {
            _ = try await driver.call(.hello)
            Issue.record("a reply with a foreign id was accepted")
        } catch {
            #expect(error.code == .malformedResponse)
            #expect(error.reason.contains("42"), "\(error.reason)")
        }
        await driver.shutdown()
    }

    @Test func responseWithNullIDIsMalformedAtOnce() async throws {
        let reply = #"{"id":null,"error":{"code":"bad_request","message":"not JSON"}}"#
        let driver = await shell("read request; echo '\(reply)'; cat > /dev/null", silence: .seconds(600))
        await #expect(throws: EngineError(.malformedResponse, "")) { try await driver.call(.hello) }
        await driver.shutdown()
    }

    @Test func typedDriverErrorIsPassedThrough() async throws {
        let reply = #"{"id":1,"error":{"code":"unknown_method","message":"no such method"}}"#
        let driver = await shell("read request; echo '\(reply)'; cat > /dev/null")
        do {
            _ = try await driver.call(.hello)
            Issue.record("an error response was taken as success")
        } catch {
            #expect(error.code == .unknownMethod)
            #expect(error.reason == "no such method")
        }
        await driver.shutdown()
    }

    @Test func resultWithWrongFieldTypesIsMalformed() async throws {
        let reply = #"{"id":1,"result":{"name":"x","version":7,"capabilities":[]}}"#
        let driver = await shell("read request; echo '\(reply)'; cat > /dev/null")
        await #expect(throws: EngineError(.malformedResponse, "")) { try await driver.capabilities() }
        await driver.shutdown()
    }

    /// A driver whose hello does not claim the world's clock and seed is refused for deterministic use.
    @Test func driverWithoutWorldIsRefused() async throws {
        let reply = #"{"id":1,"result":{"name":"x","version":"1","capabilities":["group.create"]}}"#
        let driver = await shell("read request; echo '\(reply)'; cat > /dev/null")
        do {
            try await driver.requireWorld()
            Issue.record("a driver without world capabilities was accepted")
        } catch {
            #expect(error.code == .worldUnavailable)
            #expect(error.reason.contains("world.virtual_clock"), "\(error.reason)")
        }
        await driver.shutdown()
    }

    @Test func shutdownEndsTheProcessAndForgetsIt() async throws {
        let reply = #"{"id":1,"result":{}}"#
        let driver = await shell("read request; echo '\(reply)'; cat > /dev/null")
        _ = try await driver.call(.groups)  // answered, so the process runs and its id is known
        let running = try #require(await driver.pid)
        #expect(LiveDrivers.shared.running.contains(running))
        await driver.shutdown()
        #expect(!LiveDrivers.shared.running.contains(running))
        #expect(kill(running, 0) != 0, "the driver still runs after shutdown")
    }
}
