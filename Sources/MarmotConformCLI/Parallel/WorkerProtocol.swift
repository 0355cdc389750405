// The lines a `run --jobs N` parent and its workers exchange (docs/parallel-runs.md). The parent
// writes one unit index per line on the worker's stdin; the worker answers on stdout:
//
//   @marmot-worker ready {"units":N,"versions":{"swift":"0.1"}}     once its engines are up
//   @marmot-worker run <unit> <TimedRun as JSON>                     per unit, in the order asked
//
// Anything else a worker writes on stdout is not protocol and is passed on to the parent's stderr.
// A worker reply is untrusted input: a line that does not decode is treated like a dead worker.
import Foundation
import ScenarioRunner

enum WorkerProtocol {
    static let prefix = "@marmot-worker "

    struct Ready: Codable, Equatable {
        let units: Int
        let versions: [String: String]
    }

    /// A line the parent reads from a worker.
    enum Reply: Equatable {
        case ready(Ready)
        case run(unit: Int, TimedRun)
        /// Not a protocol line (passed on), or one that does not decode (`malformed`).
        case other(String)
        case malformed(String)
    }

    static func readyLine(units: Int, versions: [String: String]) -> String {
        prefix + "ready " + encode(Ready(units: units, versions: versions))
    }

    static func runLine(unit: Int, _ timed: TimedRun) -> String {
        prefix + "run \(unit) " + encode(timed)
    }

    static func parse(_ line: String) -> Reply {
        guard line.hasPrefix(prefix) else { return .other(line) }
        let body = line.dropFirst(prefix.count)
        if body.hasPrefix("ready ") {
            guard let ready = decode(Ready.self, body.dropFirst("ready ".count)) else { return .malformed(line) }
            return .ready(ready)
        }
        if body.hasPrefix("run ") {
            let rest = body.dropFirst("run ".count)
            guard let space = rest.firstIndex(of: " "), let unit = Int(rest[..<space]),
                let timed = decode(TimedRun.self, rest[rest.index(after: space)...])
            else { return .malformed(line) }
            return .run(unit: unit, timed)
        }
        return .malformed(line)
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Our own value types always encode; a failure here is a programming error worth seeing.
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: Substring) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
