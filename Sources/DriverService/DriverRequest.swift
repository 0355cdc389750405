import Base64Encoding
import DriverProtocol
import EngineInterface
import HexEncoding
import Nostr

/// One request line, checked (docs/driver-protocol.md, "Transport"):
/// `{"id": <integer>, "method": "<name>", "params": {…}, "world": {"unix_time": …, "seed": "<hex>"}}`.
/// A line that is not a request at all (not JSON, not an object, no integer `id`) is answered with
/// `"id": null` and `bad_request`; a request naming no known method with its id and `unknown_method`.
struct DriverRequest {
    /// Why a line cannot be served, with the id to answer under (nil: `"id": null`).
    struct Refusal: Error {
        let id: Int64?
        let error: EngineError
    }

    let id: Int64
    let method: DriverMethod
    let params: Params
    /// The request's instant and seed; nil only for `hello`.
    let world: (unixTime: UInt64, seed: [UInt8])?

    static let seedBytes = 32

    init(line: [UInt8]) throws(Refusal) {
        let value: JSONValue
        do { value = try JSONValue(parsing: line) } catch {
            throw Refusal(id: nil, error: EngineError(.badRequest, "not JSON: \(error)"))
        }
        guard let fields = value.object else {
            throw Refusal(id: nil, error: EngineError(.badRequest, "a request must be a JSON object"))
        }
        guard let id = fields["id"]?.int64 else {
            throw Refusal(id: nil, error: EngineError(.badRequest, "a request needs an integer `id`"))
        }
        self.id = id
        guard let name = fields["method"]?.string else {
            throw Refusal(id: id, error: EngineError(.badRequest, "a request needs a string `method`"))
        }
        guard let method = DriverMethod(rawValue: name) else {
            throw Refusal(id: id, error: EngineError(.unknownMethod, "unknown method `\(name.prefix(100))`"))
        }
        self.method = method
        switch fields["params"] {
        case nil, .null?: params = Params(method: name, fields: [:])
        case .object(let members)?: params = Params(method: name, fields: members)
        default: throw Refusal(id: id, error: EngineError(.badRequest, "`params` must be an object"))
        }
        do { world = try Self.world(fields["world"], method: method) } catch { throw Refusal(id: id, error: error) }
    }

    /// This driver always runs its engine on the world: every request but `hello` must say when it
    /// runs, and requests that may draw randomness say from which seed.
    static func world(_ value: JSONValue?, method: DriverMethod) throws(EngineError) -> (unixTime: UInt64, seed: [UInt8])? {
        guard let value, value != .null else {
            guard method == .hello else {
                throw EngineError(.badRequest, "this driver runs on the world's clock: the request needs `world`")
            }
            return nil
        }
        guard let fields = value.object else { throw EngineError(.badRequest, "`world` must be an object") }
        guard let unixTime = fields["unix_time"]?.uint64, unixTime < 1 << 62 else {
            throw EngineError(.badRequest, "`world.unix_time` must be a non-negative integer")
        }
        guard let seedValue = fields["seed"], seedValue != .null else {
            return (unixTime, [UInt8](repeating: 0, count: seedBytes))
        }
        guard let text = seedValue.string, let seed = try? [UInt8](hex: text), seed.count == seedBytes else {
            throw EngineError(.badRequest, "`world.seed` must be \(seedBytes) bytes hex")
        }
        return (unixTime, seed)
    }
}

/// Typed access to a request's `params`: anything missing or ill-typed is `bad_request`.
struct Params {
    let method: String
    let fields: [String: JSONValue]

    func bad(_ key: String, _ detail: String) -> EngineError {
        EngineError(.badRequest, "\(method): parameter `\(key)` \(detail)")
    }

    func value(_ key: String) throws(EngineError) -> JSONValue {
        guard let value = fields[key], value != .null else { throw bad(key, "is missing") }
        return value
    }

    func has(_ key: String) -> Bool { fields[key].map { $0 != .null } ?? false }

    func string(_ key: String) throws(EngineError) -> String {
        guard let text = try value(key).string else { throw bad(key, "must be a string") }
        return text
    }

    func strings(_ key: String) throws(EngineError) -> [String] {
        guard let items = try value(key).array else { throw bad(key, "must be a list of strings") }
        var out: [String] = []
        for item in items {
            guard let text = item.string else { throw bad(key, "must be a list of strings") }
            out.append(text)
        }
        return out
    }

    func bool(_ key: String, default fallback: Bool) throws(EngineError) -> Bool {
        guard has(key) else { return fallback }
        guard let flag = fields[key]?.bool else { throw bad(key, "must be a boolean") }
        return flag
    }

    func integer(_ key: String, in range: ClosedRange<Int64>) throws(EngineError) -> Int64 {
        guard let number = try value(key).int64, range.contains(number) else { throw bad(key, "must be an integer in \(range)") }
        return number
    }

    func bytes(_ key: String, count: Int) throws(EngineError) -> [UInt8] {
        guard let bytes = try? [UInt8](hex: try string(key)), bytes.count == count else { throw bad(key, "must be \(count) bytes hex") }
        return bytes
    }

    func base64(_ key: String) throws(EngineError) -> [UInt8] {
        let text = try string(key)
        do { return try Base64.decode(text) } catch { throw bad(key, "must be base64: \(error)") }
    }

    func pubkey(_ key: String) throws(EngineError) -> PublicKey {
        do { return try PublicKey(hex: try string(key)) } catch { throw bad(key, "is not an x-only public key") }
    }

    func pubkeys(_ key: String) throws(EngineError) -> [PublicKey] {
        var out: [PublicKey] = []
        for text in try strings(key) {
            do { out.append(try PublicKey(hex: text)) } catch { throw bad(key, "holds an invalid public key") }
        }
        return out
    }

    func eventID(_ key: String) throws(EngineError) -> EventID {
        do { return try EventID(hex: try string(key)) } catch { throw bad(key, "is not an event id") }
    }

    func group(_ key: String = "mls_group_id") throws(EngineError) -> MLSGroupID { MLSGroupID(hex: try string(key)) }

    /// An event as given: its shape is checked, not its id or signature (the engine judges those,
    /// as it does in process: MIP-03 receivers see what a relay delivered).
    func event(_ key: String) throws(EngineError) -> Event {
        do { return try Event.decodeUnverified(try value(key)) } catch { throw bad(key, "is not an event: \(error)") }
    }

    func events(_ key: String) throws(EngineError) -> [Event] {
        guard let items = try value(key).array else { throw bad(key, "must be a list of event objects") }
        var out: [Event] = []
        for item in items {
            do { out.append(try Event.decodeUnverified(item)) } catch { throw bad(key, "holds a non-event: \(error)") }
        }
        return out
    }

    func rumor(_ key: String) throws(EngineError) -> UnsignedEvent {
        do { return try UnsignedEvent(rumorJSON: try value(key).serialized()) } catch { throw bad(key, "is not a rumor: \(error)") }
    }

    func tags(_ key: String) throws(EngineError) -> [[String]] {
        guard has(key) else { return [] }
        guard let items = fields[key]?.array else { throw bad(key, "must be a list of string lists") }
        var out: [[String]] = []
        for item in items {
            guard let values = item.array?.compactMap(\.string), values.count == item.array?.count else {
                throw bad(key, "must be a list of string lists")
            }
            out.append(values)
        }
        return out
    }

    func object(_ key: String) throws(EngineError) -> Params? {
        guard has(key) else { return nil }
        guard let members = fields[key]?.object else { throw bad(key, "must be an object") }
        return Params(method: method, fields: members)
    }
}
