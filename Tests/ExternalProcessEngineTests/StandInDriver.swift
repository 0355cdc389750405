import ExternalProcessEngine

/// A stand-in driver (a shell script) that creates the instance, then answers one request with
/// `result`: what a driver's reply decoders are tested against.
enum StandInDriver {
    static func engine(answering result: String) async throws -> (DriverProcess, ExternalProcessEngine) {
        let script = """
            read request; echo '{"id":1,"result":{"instance":"m"}}'
            read request; echo '{"id":2,"result":\(result)}'; cat > /dev/null
            """
        let driver = await DriverProcess.launch(executable: "/bin/sh", arguments: ["-c", script])
        return (driver, try await driver.makeEngine(instance: "m", encryptionKey: [UInt8](repeating: 1, count: 32)))
    }
}
