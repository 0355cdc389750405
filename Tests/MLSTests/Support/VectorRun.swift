// Shared plumbing for the MLS WG vector files: hex fields, per-case field checks, and the
// one-line per-file summary `<file>: N passed, N skipped (...)`.
import ConformanceTestSupport
import Foundation
import HexEncoding
import MLS
import Testing

/// A hex string field of a vector file, decoded to bytes.
struct Hex: Decodable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]

    init(from decoder: any Decoder) throws {
        bytes = try [UInt8](hex: try decoder.singleValueContainer().decode(String.self))
    }

    var description: String { bytes.hexString }
}

/// Collects field mismatches for one case so that the summary counts only clean cases as passed.
struct FieldChecks {
    private(set) var failures: [String] = []
    let caseName: String

    init(_ caseName: String) { self.caseName = caseName }

    mutating func equal<T: Equatable>(
        _ actual: T, _ expected: T, _ field: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual != expected else { return }
        failures.append(field)
        Issue.record("\(caseName): \(field) is \(actual), expected \(expected)", sourceLocation: sourceLocation)
    }

    mutating func require(_ condition: Bool, _ field: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard !condition else { return }
        failures.append(field)
        Issue.record("\(caseName): \(field) check failed", sourceLocation: sourceLocation)
    }

    /// Runs `body`, recording a thrown error as a failure of `field`.
    mutating func noThrow<T>(
        _ field: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
    ) -> T? {
        do { return try body() } catch {
            failures.append(field)
            Issue.record("\(caseName): \(field) threw \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

/// A vector case that names its cipher suite.
protocol SuiteCase: Decodable {
    var cipher_suite: UInt16 { get }
}

enum VectorRun {
    /// Runs `check` on every case of `file` whose suite we support, skips the others by name,
    /// prints the summary line and fails if any suite-1 case was skipped or failed.
    @discardableResult
    static func suites<C: SuiteCase>(
        _ file: String, _: C.Type, sourceLocation: SourceLocation = #_sourceLocation,
        _ check: (C, CipherSuite, inout FieldChecks) throws -> Void
    ) throws -> (passed: Int, skipped: Int) {
        let cases = try Vectors.decode([C].self, from: "mls/\(file)")
        try requireEveryFieldDeclared(file, cases, sourceLocation: sourceLocation)
        var passed = 0
        var failed = 0
        var skippedSuites: [UInt16: Int] = [:]
        for (index, c) in cases.enumerated() {
            guard let suite = try? CipherSuite(id: c.cipher_suite) else {
                skippedSuites[c.cipher_suite, default: 0] += 1
                continue
            }
            var checks = FieldChecks("\(file)[\(index)]")
            do { try check(c, suite, &checks) } catch {
                checks.require(false, "threw \(error)")
            }
            if checks.failures.isEmpty { passed += 1 } else { failed += 1 }
        }
        let skipped = skippedSuites.values.reduce(0, +)
        print(summary(file, passed: passed, failed: failed, skippedSuites: skippedSuites))
        #expect(passed > 0, "no case of \(file) ran", sourceLocation: sourceLocation)
        #expect(failed == 0, sourceLocation: sourceLocation)
        return (passed, skipped)
    }

    /// Runs `check` on every case of a file that has no cipher suite field.
    static func plain<C: Decodable>(
        _ file: String, _: C.Type, sourceLocation: SourceLocation = #_sourceLocation,
        _ check: (C, inout FieldChecks) throws -> Void
    ) throws {
        let cases = try Vectors.decode([C].self, from: "mls/\(file)")
        try requireEveryFieldDeclared(file, cases, sourceLocation: sourceLocation)
        var passed = 0
        var failed = 0
        for (index, c) in cases.enumerated() {
            var checks = FieldChecks("\(file)[\(index)]")
            do { try check(c, &checks) } catch { checks.require(false, "threw \(error)") }
            if checks.failures.isEmpty { passed += 1 } else { failed += 1 }
        }
        print(summary(file, passed: passed, failed: failed, skippedSuites: [:]))
        #expect(passed > 0 && failed == 0, sourceLocation: sourceLocation)
    }

    /// Fails when the file has a JSON field (at any depth) that the case type does not declare:
    /// Decodable would skip it silently, and then the test would not check every field.
    private static func requireEveryFieldDeclared<C>(
        _ file: String, _ cases: [C], sourceLocation: SourceLocation
    ) throws {
        let json = try JSONSerialization.jsonObject(with: Vectors.data("mls/\(file)"))
        var missing = Set<String>()
        undeclared(json: json, value: cases, path: file, into: &missing)
        #expect(missing.isEmpty, "fields the test does not declare: \(missing.sorted())", sourceLocation: sourceLocation)
    }

    private static func undeclared(json: Any, value: Any, path: String, into missing: inout Set<String>) {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            if let wrapped = mirror.children.first { undeclared(json: json, value: wrapped.value, path: path, into: &missing) }
            return
        }
        if let object = json as? [String: Any] {
            let fields = Dictionary(
                mirror.children.compactMap { child in child.label.map { ($0, child.value) } }, uniquingKeysWith: { a, _ in a })
            for (key, inner) in object {
                guard let field = fields[key] else {
                    missing.insert("\(path).\(key)")
                    continue
                }
                undeclared(json: inner, value: field, path: "\(path).\(key)", into: &missing)
            }
        } else if let array = json as? [Any], mirror.displayStyle == .collection {
            for (element, child) in zip(array, mirror.children) {
                undeclared(json: element, value: child.value, path: "\(path)[]", into: &missing)
            }
        }
    }

    private static func summary(_ file: String, passed: Int, failed: Int, skippedSuites: [UInt16: Int]) -> String {
        let skipped = skippedSuites.values.reduce(0, +)
        var line = "\(file): \(passed) passed, \(skipped) skipped"
        if !skippedSuites.isEmpty {
            let names = skippedSuites.keys.sorted().map { "suite \($0)" }.joined(separator: ", ")
            line += " (\(names) unsupported)"
        }
        if failed > 0 { line += ", \(failed) FAILED" }
        return line
    }
}

enum ConformanceTestSupportLoader {
    /// The first case of a vector file.
    static func first<C: Decodable>(_: C.Type, _ file: String) throws -> C {
        guard let c = try Vectors.decode([C].self, from: "mls/\(file)").first else {
            throw MLSError(.malformed, "\(file) is empty")
        }
        return c
    }
}
