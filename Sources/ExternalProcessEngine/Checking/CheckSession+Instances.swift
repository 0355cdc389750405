import Nostr

// Valid use: an instance's life, answers in any order, an oversized line, shutdown.
extension CheckSession {
    mutating func instances(capabilities: [String]) async -> [Finding] {
        var findings: [Finding] = []
        let create = Self.request(newID(), "create_instance", #"{"instance":"check-a","encryption_key":"\#(Self.key)"}"#)
        findings.append(
            await probe(
                "create_instance answers the instance's name", create,
                Self.wantsResult(id: nextID - 1) { result in
                    result["instance"]?.string == "check-a"
                        ? nil : "expected {\"instance\": \"check-a\"}, got \(JSONValue.object(result).serialized().prefix(120))"
                }))
        var id = newID()
        findings.append(
            await probe(
                "a second instance of the same name is instance_exists",
                Self.request(id, "create_instance", #"{"instance":"check-a","encryption_key":"\#(Self.key)"}"#),
                Self.wants(code: "instance_exists", id: id)))
        findings.append(
            await probe(
                "a new instance has no groups", Self.request(newID(), "groups", #"{"instance":"check-a"}"#),
                Self.wantsResult(id: nextID - 1) { result in
                    result["groups"]?.array == []
                        ? nil : "expected {\"groups\": []}, got \(JSONValue.object(result).serialized().prefix(120))"
                }))
        if capabilities.contains("key_package.30443") || capabilities.contains("key_package.443") {
            let params = #"{"instance":"check-a","public_key":"\#(Self.pubkey)","relays":["wss://relay.example"]}"#
            findings.append(
                await probe(
                    "create_key_package answers content, tags, d_tag and key_package_ref",
                    Self.request(newID(), "create_key_package", params),
                    Self.wantsResult(id: nextID - 1) { result in
                        let missing =
                            ["content", "d_tag", "key_package_ref"].filter { result[$0]?.string == nil }
                            + ["tags", "tags_legacy"].filter { result[$0]?.array == nil }
                        return missing.isEmpty ? nil : "the result lacks \(missing.joined(separator: ", "))"
                    }))
        }
        findings.append(
            await probe(
                "destroy_instance answers an empty result", Self.request(newID(), "destroy_instance", #"{"instance":"check-a"}"#),
                Self.wantsResult(id: nextID - 1)))
        id = newID()
        findings.append(
            await probe(
                "a destroyed instance is unknown_instance", Self.request(id, "groups", #"{"instance":"check-a"}"#),
                Self.wants(code: "unknown_instance", id: id)))
        return findings
    }

    /// Two requests in one write, ids descending and one beyond 2^32: each answered once under its own id.
    func ordering() async -> Finding {
        let check = "requests sent together are each answered once, under their own ids"
        let high: Int64 = 9_007_199_254_740_991
        let low: Int64 = 17
        await driver.send(Self.request(high, "hello", world: false) + "\n" + Self.request(low, "hello", world: false) + "\n")
        var seen: [JSONValue] = []
        for _ in 0..<2 {
            switch await read(within: timeout) {
            case .failure(let failure): return Finding(check: check, problem: failure.reason)
            case .success(let response): seen.append(response.id ?? .null)
            }
        }
        let wanted = [JSONValue(high), JSONValue(low)]
        guard seen.count == 2, wanted.allSatisfy(seen.contains) else {
            return Finding(
                check: check, problem: "expected ids \(high) and \(low), got \(seen.map { $0.serialized() }.joined(separator: ", "))")
        }
        return Finding(check: check, problem: nil)
    }

    /// A request line of `bytes` bytes: one response under its id (a result or an error), and the
    /// driver still answers afterwards.
    mutating func oversized(bytes: Int) async -> [Finding] {
        let id = newID()
        let padding = String(repeating: "x", count: bytes)
        let line = #"{"id":\#(id),"method":"hello","params":{"padding":"\#(padding)"}}"#
        let first = await probe("an oversized request (\(bytes >> 20) MiB) gets one response", line, within: timeout * 3) { response in
            guard response.id == JSONValue(id) || (response.id ?? .null) == .null && response.errorCode == "bad_request" else {
                return "expected a response under id \(id) (or bad_request under id null), got \(response.summary)"
            }
            return nil
        }
        let after = await probe(
            "the driver still answers after the oversized request", Self.request(newID(), "hello", world: false),
            Self.wantsResult(id: nextID - 1))
        return [first, after]
    }

    /// Closing stdin ends the driver with status 0.
    func shutdown() async -> Finding {
        let check = "closing stdin ends the driver with exit status 0"
        await driver.closeInput()
        guard let status = await driver.exit(within: timeout) else {
            return Finding(check: check, problem: "still running \(timeout) after stdin closed (killed)")
        }
        return Finding(check: check, problem: status == "exit status 0" ? nil : "ended with \(status)")
    }
}
