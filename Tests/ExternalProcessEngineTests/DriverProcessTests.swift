import EngineInterface
import ExternalProcessEngine
import Testing

/// The client's handling of drivers that misbehave, using /bin/sh scripts as stand-in drivers.
@Suite struct DriverProcessTests {
    private func shell(_ script: String, timeout: Duration = .seconds(30)) async -> DriverProcess {
        await DriverProcess.launch(executable: "/bin/sh", arguments: ["-c", script], requestTimeout: timeout)
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

    @Test func silentDriverTimesOut() async throws {
        let driver = await shell("cat > /dev/null", timeout: .milliseconds(300))
        await #expect(throws: EngineError(.timeout, "")) { try await driver.call(.hello) }
        await driver.shutdown()
    }

    @Test func responseThatIsNotJSONIsMalformed() async throws {
        let driver = await shell("read request; echo 'this is not a response'; cat > /dev/null")
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
}
