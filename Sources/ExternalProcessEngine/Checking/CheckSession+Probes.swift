import Nostr

// The checks, in the order they run. Each names what it sends and what the response must be
// (docs/driver-protocol.md: "Transport", "Determinism", "Errors").
extension CheckSession {
    typealias Finding = DriverChecker.Finding

    static let key = String(repeating: "07", count: 32)
    /// The x coordinate of secp256k1's generator: a valid x-only public key.
    static let pubkey = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
    static let world = #"{"unix_time":1700000000,"seed":"\#(String(repeating: "00", count: 31))01"}"#

    static func request(_ id: Int64?, _ method: String, _ params: String = "{}", world: Bool = true) -> String {
        let idField = id.map { #""id":\#($0),"# } ?? ""
        return #"{\#(idField)"method":"\#(method)","params":\#(params)\#(world ? #","world":\#(Self.world)"# : "")}"#
    }

    /// `expected` describes the wanted answer; `judge` returns a problem or nil.
    func probe(_ check: String, _ line: String, within limit: Duration? = nil, _ judge: (Response) -> String?) async -> Finding {
        switch await exchange(line, within: limit) {
        case .failure(let failure): return Finding(check: check, problem: failure.reason)
        case .success(let response): return Finding(check: check, problem: judge(response))
        }
    }

    /// An error with `code` under `id` (nil: `"id": null`).
    static func wants(code: String, id: Int64?) -> (Response) -> String? {
        { response in
            let wantedID: JSONValue = id.map { JSONValue($0) } ?? .null
            let gotID = response.id ?? .null
            guard response.errorCode == code, gotID == wantedID else {
                return "expected error \(code) under id \(wantedID.serialized()), got \(response.summary)"
            }
            return nil
        }
    }

    /// A result under `id`, checked further by `fields` (a problem or nil).
    static func wantsResult(id: Int64, _ fields: @escaping ([String: JSONValue]) -> String? = { _ in nil }) -> (Response) -> String? {
        { response in
            guard let result = response.result, response.id == JSONValue(id) else {
                return "expected a result under id \(id), got \(response.summary)"
            }
            return fields(result)
        }
    }

    mutating func hello(_ limit: Duration) async -> (finding: Finding, capabilities: [String]?) {
        var capabilities: [String]?
        let finding = await probe(
            "hello names the engine and its capabilities", Self.request(newID(), "hello", world: false), within: limit,
            Self.wantsResult(id: nextID - 1) { result in
                guard result["name"]?.string != nil, result["version"]?.string != nil else {
                    return "hello lacks a string `name` or `version`"
                }
                guard let list = result["capabilities"]?.array, list.allSatisfy({ $0.string != nil }) else {
                    return "hello lacks `capabilities`, a list of strings"
                }
                capabilities = list.compactMap(\.string)
                return nil
            })
        return (finding, finding.holds ? capabilities : nil)
    }

    /// Lines that are not requests: each answered with `{"id": null, "error": {"code": "bad_request"}}`.
    func invalidLines() async -> [Finding] {
        let cases: [(String, String)] = [
            ("a line that is not JSON", "{this is not json"),
            ("a JSON line that is not an object", "[1,2,3]"),
            ("a request without an id", #"{"method":"hello"}"#),
            ("a request whose id is not an integer", #"{"id":"seven","method":"hello"}"#),
        ]
        var findings: [Finding] = []
        for (check, line) in cases {
            findings.append(await probe("\(check) is bad_request under id null", line, Self.wants(code: "bad_request", id: nil)))
        }
        return findings
    }

    /// Requests that are well formed lines but wrong: unknown method, ill-typed params, missing fields, no world.
    mutating func invalidRequests(offersWorld: Bool) async -> [Finding] {
        var findings: [Finding] = []
        var id = newID()
        findings.append(
            await probe(
                "an unknown method is unknown_method under its id", Self.request(id, "no_such_method"),
                Self.wants(code: "unknown_method", id: id)))
        id = newID()
        findings.append(
            await probe(
                "params that are not an object are bad_request", Self.request(id, "create_instance", "[1]"),
                Self.wants(code: "bad_request", id: id)))
        id = newID()
        findings.append(
            await probe(
                "create_instance without encryption_key is bad_request",
                Self.request(id, "create_instance", #"{"instance":"check-missing"}"#), Self.wants(code: "bad_request", id: id)))
        id = newID()
        findings.append(
            await probe("a method without its instance is bad_request", Self.request(id, "groups"), Self.wants(code: "bad_request", id: id))
        )
        id = newID()
        findings.append(
            await probe(
                "an instance that does not exist is unknown_instance",
                Self.request(id, "groups", #"{"instance":"no-such-instance"}"#), Self.wants(code: "unknown_instance", id: id)))
        guard offersWorld else { return findings }
        id = newID()
        findings.append(
            await probe(
                "a driver on the world refuses an engine request without world (bad_request)",
                Self.request(id, "create_instance", #"{"instance":"check-noworld","encryption_key":"\#(Self.key)"}"#, world: false),
                Self.wants(code: "bad_request", id: id)))
        id = newID()
        let badWorld =
            #"{"id":\#(id),"method":"create_instance","params":{"instance":"check-badworld","encryption_key":"\#(Self.key)"},"world":{"unix_time":"soon"}}"#
        findings.append(await probe("an ill-typed world is bad_request", badWorld, Self.wants(code: "bad_request", id: id)))
        return findings
    }
}
