import Base64Encoding
import EngineInterface
import Nostr

/// Typed access to a driver's `result` object. A driver is a separate program, so its output is
/// untrusted: every missing or ill-typed field is a `.malformedResponse`, never a trap.
package struct DriverReply {
    package let method: DriverMethod
    package let fields: [String: JSONValue]

    package init(_ method: DriverMethod, _ fields: [String: JSONValue]) {
        self.method = method
        self.fields = fields
    }

    package func malformed(_ key: String, _ detail: String) -> EngineError {
        EngineError(.malformedResponse, "\(method.rawValue): `\(key)` \(detail)")
    }

    package func value(_ key: String) throws(EngineError) -> JSONValue {
        guard let value = fields[key] else { throw malformed(key, "is missing") }
        return value
    }

    package func string(_ key: String) throws(EngineError) -> String {
        guard let text = try value(key).string else { throw malformed(key, "is not a string") }
        return text
    }

    package func uint64(_ key: String) throws(EngineError) -> UInt64 {
        guard let number = try value(key).uint64 else { throw malformed(key, "is not an unsigned integer") }
        return number
    }

    package func object(_ key: String) throws(EngineError) -> DriverReply {
        guard let members = try value(key).object else { throw malformed(key, "is not an object") }
        return DriverReply(method, members)
    }

    package func array(_ key: String) throws(EngineError) -> [JSONValue] {
        guard let items = try value(key).array else { throw malformed(key, "is not an array") }
        return items
    }

    package func objects(_ key: String) throws(EngineError) -> [DriverReply] {
        var result: [DriverReply] = []
        for item in try array(key) {
            guard let members = item.object else { throw malformed(key, "holds a non-object") }
            result.append(DriverReply(method, members))
        }
        return result
    }

    package func strings(_ key: String) throws(EngineError) -> [String] {
        var result: [String] = []
        for item in try array(key) {
            guard let text = item.string else { throw malformed(key, "holds a non-string") }
            result.append(text)
        }
        return result
    }

    package func tags(_ key: String) throws(EngineError) -> [[String]] {
        var result: [[String]] = []
        for item in try array(key) {
            guard let tag = item.array else { throw malformed(key, "holds a non-array tag") }
            var values: [String] = []
            for element in tag {
                guard let text = element.string else { throw malformed(key, "holds a non-string tag value") }
                values.append(text)
            }
            result.append(values)
        }
        return result
    }

    package func hex(_ key: String) throws(EngineError) -> [UInt8] {
        let text = try string(key)
        do { return try [UInt8](hex: text) } catch { throw malformed(key, "is not hex: \(error)") }
    }

    package func base64(_ key: String) throws(EngineError) -> [UInt8] {
        let text = try string(key)
        do { return try Base64.decode(text) } catch { throw malformed(key, "is not base64: \(error)") }
    }

    package func pubkey(_ key: String) throws(EngineError) -> PublicKey {
        let text = try string(key)
        do { return try PublicKey(hex: text) } catch { throw malformed(key, "is not an x-only public key: \(error)") }
    }

    package func pubkeys(_ key: String) throws(EngineError) -> [PublicKey] {
        var result: [PublicKey] = []
        for text in try strings(key) {
            do { result.append(try PublicKey(hex: text)) } catch {
                throw malformed(key, "holds an invalid public key: \(error)")
            }
        }
        return result
    }

    package func eventID(_ key: String) throws(EngineError) -> EventID {
        let text = try string(key)
        do { return try EventID(hex: text) } catch { throw malformed(key, "is not an event id: \(error)") }
    }

    package func mlsGroupID(_ key: String = "mls_group_id") throws(EngineError) -> MLSGroupID {
        MLSGroupID(hex: try string(key))
    }

    /// A signed event; its id and signature are verified, so an engine cannot hand us a forged event.
    package func event(_ key: String) throws(EngineError) -> Event {
        let json = try value(key)
        do { return try Event(jsonValue: json) } catch { throw malformed(key, "is not a valid signed event: \(error)") }
    }

    /// A rumor: unsigned, but its `id` must match its content.
    package static func rumor(_ json: JSONValue, _ method: DriverMethod, _ key: String) throws(EngineError) -> UnsignedEvent {
        do { return try UnsignedEvent(rumorJSON: json.serialized()) } catch {
            throw EngineError(.malformedResponse, "\(method.rawValue): `\(key)` is not a valid rumor: \(error)")
        }
    }

    package func rumor(_ key: String) throws(EngineError) -> UnsignedEvent {
        try Self.rumor(value(key), method, key)
    }

    package func rumors(_ key: String) throws(EngineError) -> [UnsignedEvent] {
        var result: [UnsignedEvent] = []
        for item in try array(key) { result.append(try Self.rumor(item, method, key)) }
        return result
    }
}
