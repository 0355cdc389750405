import Foundation
import Testing

/// `public` is the API of the vended libraries: `Nostr`, `MLS`, and the two targets their API is made
/// of (`ErrorCodes`: every module's error type; `TLSCodec`: MLS's wire types are `TLSCodable`). Every other target shares its
/// internals across the package with `package`, so that no symbol there reads as a promise to users;
/// and the `MLS` library hands out no epoch secret, secret tree or private key.
@Suite struct AccessTests {
    /// `MarmotConformanceKit` is the compatibility kit (a library product, issue 15) and
    /// `EngineInterface` the `ProtocolEngine` its users implement: both added deliberately.
    static let vended: Set<String> = ["Nostr", "MLS", "ErrorCodes", "TLSCodec", "MarmotConformanceKit", "EngineInterface"]

    /// Types MLS keeps `package` (no public declaration may be of them, or mention them): the
    /// epoch's secrets, the ratchets and the member's private keys.
    static let mlsSecretTypes = ["EpochSecrets", "SecretTree", "TreePrivateKeys", "CreatedUpdatePath", "RatchetKey", "SenderRatchet"]
    /// Members MLS keeps `package`: secrets and private keys held in public types.
    static let mlsSecretMembers = [
        "secretTree", "epochSecrets", "pskSecret", "joinerSecret", "pathSecret", "groupSecrets", "initPrivateKey",
        "encryptionPrivateKey", "signaturePrivateKey",
    ]

    /// Whether a public declaration line of MLS hands out a secret.
    static func exposesSecret(_ line: Substring) -> Bool {
        let name = declaredName(line) ?? ""
        return mlsSecretMembers.contains(name) || mlsSecretTypes.contains { line.contains($0) }
    }

    /// Line numbers of the `public` declarations in `text` (a line starting with `public `, or with
    /// attributes and then `public `), outside comments.
    static func publicLines(in text: String) -> [Int] {
        var lines: [Int] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            while rest.hasPrefix("@") {
                rest = rest.drop { $0 != " " }.drop { $0 == " " }
            }
            if rest.hasPrefix("public ") { lines.append(index + 1) }
        }
        return lines
    }

    /// The name a declaration line declares (`public var secrets: …` → `secrets`).
    static func declaredName(_ line: Substring) -> String? {
        let words = line.split(whereSeparator: { " (:<={".contains($0) })
        let keywords: Set<Substring> = ["struct", "enum", "class", "actor", "protocol", "typealias", "var", "let", "func", "case"]
        guard let index = words.firstIndex(where: { keywords.contains($0) }), index + 1 < words.count else { return nil }
        return String(words[index + 1])
    }

    static func repositoryFiles() throws -> [(target: String, file: String, text: String)] {
        try SourceImports.swiftFiles(root: try SourceImports.repositoryRoot())
    }

    @Test func onlyTheVendedLibrariesDeclarePublicSymbols() throws {
        let files = try Self.repositoryFiles()
        #expect(files.count > 200, "the scan read too few files")
        let misplaced = files.filter { !Self.vended.contains($0.target) }
            .flatMap { file in Self.publicLines(in: file.text).map { "\(file.file):\($0)" } }
        #expect(misplaced.isEmpty, "public outside the vended libraries (use package):\n\(misplaced.joined(separator: "\n"))")
        #expect(files.filter { $0.target == "MLS" }.contains { !Self.publicLines(in: $0.text).isEmpty }, "MLS declares its API public")
    }

    /// The kit's API is public (it is what a Swift engine's own tests call), and so is the engine
    /// protocol it takes; the hostile-member seam in EngineInterface stays `package`.
    @Test func theKitAndItsEngineProtocolArePublicButNotTheHostileSeam() throws {
        let files = try Self.repositoryFiles()
        for target in ["MarmotConformanceKit", "EngineInterface"] {
            #expect(
                files.filter { $0.target == target }.contains { !Self.publicLines(in: $0.text).isEmpty },
                "\(target) declares its API public")
        }
        let hostile = files.filter { $0.file.hasSuffix("EngineInterface/HostileEngine.swift") }
        #expect(hostile.count == 1)
        #expect(hostile.allSatisfy { Self.publicLines(in: $0.text).isEmpty }, "HostileEngine stays package")
    }

    @Test func theMLSLibraryHandsOutNoSecret() throws {
        var exposed: [String] = []
        for file in try Self.repositoryFiles() where file.target == "MLS" {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
            for number in Self.publicLines(in: file.text) {
                if Self.exposesSecret(lines[number - 1]) { exposed.append("\(file.file):\(number): \(lines[number - 1])") }
            }
        }
        #expect(exposed.isEmpty, "\(exposed.joined(separator: "\n"))")
    }

    /// The twins: the scanners find what the checks above must refuse, and skip what they must not.
    @Test func theScannersFindPublicDeclarationsAndTheirNames() {
        let text = """
            // public func inAComment()
            package struct Fine {}
            public struct EpochSecrets {
                @inlinable public func f() {}
                public internal(set) var secrets: EpochSecrets
                let text = "public "
            }
            """
        #expect(Self.publicLines(in: text) == [3, 4, 5])
        let lines = text.split(separator: "\n")
        #expect(Self.declaredName(lines[2]) == "EpochSecrets")
        #expect(Self.declaredName(lines[4]) == "secrets")
        #expect(Self.declaredName(lines[3]) == "f")
        #expect(Self.exposesSecret(lines[2]) && Self.exposesSecret(lines[4]))
        #expect(Self.exposesSecret("public var initPrivateKey: [UInt8]"))
        #expect(!Self.exposesSecret("public var secrets: [EncryptedGroupSecrets]"))
    }
}
