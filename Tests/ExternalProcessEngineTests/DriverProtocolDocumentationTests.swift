import ConformanceTestSupport
import DriverProtocol
import Foundation
import Testing

/// docs/driver-protocol.md must document every method the Swift client sends, so that another engine's
/// driver can be written from the document alone.
@Suite struct DriverProtocolDocumentationTests {
    private static func read(_ path: String) throws -> String {
        try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// Method names as written in the client's source: `case x = "name"` in DriverMethod.swift.
    private static func methodNamesInSource() throws -> Set<String> {
        let source = try read("Sources/DriverProtocol/DriverMethod.swift")
        let pattern = try NSRegularExpression(pattern: #"case\s+`?\w+`?\s*=\s*"([a-z_]+)""#)
        let range = NSRange(source.startIndex..., in: source)
        return Set(
            pattern.matches(in: source, range: range).compactMap { match in
                Range(match.range(at: 1), in: source).map { String(source[$0]) }
            })
    }

    /// Names documented as a method heading: `### \`name\`` (several names may share one heading).
    private static func documentedMethods() throws -> Set<String> {
        var names: Set<String> = []
        for line in try read("docs/driver-protocol.md").split(separator: "\n") where line.hasPrefix("### ") {
            let parts = line.split(separator: "`")
            for (index, part) in parts.enumerated() where index % 2 == 1 { names.insert(String(part)) }
        }
        return names
    }

    @Test func extractionSeesEveryMethodTheClientCanSend() throws {
        #expect(try Self.methodNamesInSource() == Set(DriverMethod.allCases.map(\.rawValue)))
    }

    @Test func everyMethodIsDocumented() throws {
        let documented = try Self.documentedMethods()
        let undocumented = try Self.methodNamesInSource().subtracting(documented)
        #expect(undocumented.isEmpty, "methods missing from docs/driver-protocol.md: \(undocumented.sorted())")
    }

    @Test func everyCallSiteUsesADeclaredMethod() throws {
        let folder = Vectors.repositoryRoot.appendingPathComponent("Sources/ExternalProcessEngine")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let pattern = try NSRegularExpression(pattern: #"call\(\s*\.(\w+)"#)
        var used: Set<String> = []
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                if let range = Range(match.range(at: 1), in: source) { used.insert(String(source[range])) }
            }
        }
        let declared = Set(DriverMethod.allCases.map { "\($0)" })
        #expect(!used.isEmpty)
        #expect(used.isSubset(of: declared), "unknown call sites: \(used.subtracting(declared).sorted())")
        #expect(used == declared, "declared but never called: \(declared.subtracting(used).sorted())")
    }
}
