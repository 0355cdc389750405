import ConformanceTestSupport
import Foundation
import HexEncoding
import Nostr

/// Reads `vectors/mdk-0.8.0/*.json` (MDK 0.8.0 captures; other folders by `folder`) as loosely typed JSON.
enum MDKVectors {
    static func file(_ name: String, folder: String = "mdk-0.8.0") throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: try Vectors.data("\(folder)/\(name)"))
        guard let dictionary = object as? [String: Any] else { throw Missing(path: name) }
        return dictionary
    }

    struct Missing: Error { let path: String }

    /// The value at a `/`-separated path of keys.
    static func value(_ root: [String: Any], _ path: String) throws -> Any {
        var current: Any = root
        for key in path.split(separator: "/") {
            guard let next = (current as? [String: Any])?[String(key)] else { throw Missing(path: path) }
            current = next
        }
        return current
    }

    static func string(_ root: [String: Any], _ path: String) throws -> String {
        guard let text = try value(root, path) as? String else { throw Missing(path: path) }
        return text
    }

    static func bytes(_ root: [String: Any], _ path: String) throws -> [UInt8] { try [UInt8](hex: try string(root, path)) }

    /// A signed event stored as `<path>/event_json` (exact wire JSON) or, failing that, as the object `<path>/event`.
    static func event(_ root: [String: Any], _ path: String) throws -> Event {
        if let json = try? string(root, "\(path)/event_json") { return try Event(json: json) }
        return try eventObject(root, "\(path)/event")
    }

    /// A signed event stored as a JSON object.
    static func eventObject(_ root: [String: Any], _ path: String) throws -> Event {
        let data = try JSONSerialization.data(withJSONObject: try value(root, path))
        return try Event(json: String(decoding: data, as: UTF8.self))
    }
}
