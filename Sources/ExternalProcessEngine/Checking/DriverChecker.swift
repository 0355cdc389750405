import EngineInterface
import Nostr

/// `marmot-conform check-driver`: exercises a driver with valid and invalid requests and reports,
/// check by check, what it does that docs/driver-protocol.md does not allow. Each check sends
/// something (a malformed line, an unknown method, a request without `world`, …) and states what
/// the response must be; a driver passes when every check holds.
package struct DriverChecker: Sendable {
    /// One check's verdict.
    package struct Finding: Sendable, Hashable {
        package let check: String
        /// Nil when the check held; otherwise what the driver did wrong.
        package let problem: String?
        package var holds: Bool { problem == nil }
    }

    /// How long a response may take (the first, `hello`, may take longer: engines load then).
    package var responseTimeout: Duration = .seconds(10)
    package var startTimeout: Duration = .seconds(120)
    /// The oversized request's size (a line longer than any the gate sends but one).
    package var oversizedBytes = 8 << 20

    package init() {}

    /// Runs every check against a fresh driver process and ends it.
    package func check(executable: String, arguments: [String], environment: [String: String?] = [:]) async -> [Finding] {
        let driver = await RawDriver.launch(executable: executable, arguments: arguments, environment: environment)
        var session = CheckSession(driver: driver, timeout: responseTimeout)
        var findings: [Finding] = []
        let hello = await session.hello(startTimeout)
        findings.append(hello.finding)
        if let capabilities = hello.capabilities {
            findings += await session.invalidLines()
            findings += await session.invalidRequests(offersWorld: capabilities.contains("world.virtual_clock"))
            findings += await session.instances(capabilities: capabilities)
            findings.append(await session.ordering())
            findings += await session.oversized(bytes: oversizedBytes)
        }
        findings.append(await session.shutdown())
        return findings
    }
}

/// The state of one check run: the driver and the next request id.
struct CheckSession {
    let driver: RawDriver
    let timeout: Duration
    var nextID: Int64 = 1

    /// A response line, decoded: its id (nil: `null` or missing) and result or error code.
    struct Response {
        let id: JSONValue?
        let result: [String: JSONValue]?
        let errorCode: String?

        var summary: String {
            let idText = id.map { $0.serialized() } ?? "missing"
            if let errorCode { return "error \(errorCode) under id \(idText)" }
            return "a result under id \(idText)"
        }
    }

    mutating func newID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Sends a line and reads one response, or says why there is none or it is not a response.
    /// Lines the driver wrote that nobody asked for (answers to nothing, log lines) are drained
    /// first and fail this check, so that each check judges its own answer.
    func exchange(_ line: String, within limit: Duration? = nil) async -> Result<Response, CheckFailure> {
        var stray: [String] = []
        while let extra = await driver.nextLine(within: .milliseconds(20)) { stray.append(extra) }
        await driver.send(line + "\n")
        let response = await read(within: limit ?? timeout)
        guard stray.isEmpty else {
            return .failure(
                CheckFailure(
                    "before this request the driver wrote \(stray.count) line(s) that answer nothing sent since: \(stray[0].prefix(120))"))
        }
        return response
    }

    func read(within limit: Duration) async -> Result<Response, CheckFailure> {
        guard let line = await driver.nextLine(within: limit) else {
            let stderr = await driver.stderr.suffix(3).joined(separator: " | ")
            let context = stderr.isEmpty ? "" : " (stderr: \(stderr.prefix(300)))"
            if let status = await driver.exited { return .failure(CheckFailure("the driver exited (\(status))\(context)")) }
            return .failure(CheckFailure("no response within \(limit)\(context)"))
        }
        guard let object = try? JSONValue(parsing: line).object else {
            return .failure(CheckFailure("wrote a line that is not a JSON object (stdout must carry responses only): \(line.prefix(160))"))
        }
        let error = object["error"]?.object
        let result = object["result"]?.object
        guard (error == nil) != (result == nil) else {
            return .failure(CheckFailure("wrote a response without exactly one of `result` (an object) and `error`: \(line.prefix(160))"))
        }
        if let error, error["code"]?.string == nil || error["message"]?.string == nil {
            return .failure(CheckFailure("wrote an error without a string `code` and `message`: \(line.prefix(160))"))
        }
        return .success(Response(id: object["id"], result: result, errorCode: error?["code"]?.string))
    }
}

/// Why a check failed, in a sentence.
struct CheckFailure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
