import ConformanceTestSupport
import Foundation
import HexEncoding
import Nostr
import Testing

/// One row of vectors/bip340/test-vectors.csv.
struct BIP340Row: Sendable, CustomTestStringConvertible {
    let index: Int
    let secretKey: String
    let publicKey: String
    let auxRand: String
    let message: String
    let signature: String
    let valid: Bool
    let comment: String

    var testDescription: String { "row \(index)\(comment.isEmpty ? "" : ": \(comment)")" }

    static func load() throws -> [BIP340Row] {
        let text = String(decoding: try Vectors.data("bip340/test-vectors.csv"), as: UTF8.self)
        return try Vectors.nonEmpty(
            text.split(whereSeparator: \.isNewline).dropFirst().map { line in
                let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                return BIP340Row(
                    index: Int(f[0]) ?? -1, secretKey: f[1], publicKey: f[2], auxRand: f[3], message: f[4],
                    signature: f[5], valid: f[6] == "TRUE", comment: f.count > 7 ? f[7...].joined(separator: ",") : "")
            }, "bip340/test-vectors.csv")
    }
}

@Suite struct BIP340Tests {
    @Test func fileHasAllFifteenRows() throws {
        #expect(try BIP340Row.load().map(\.index) == Array(0...14))
    }

    @Test(
        arguments: try Vectors.nonEmpty(
            BIP340Row.load().filter { !$0.secretKey.isEmpty }, "bip340/test-vectors.csv (rows with a secret key)"))
    func signingReproducesTheExactSignature(_ row: BIP340Row) throws {
        let keypair = Keypair(secretKey: try SecretKey(bytes: [UInt8](hex: row.secretKey)))
        #expect(keypair.publicKey.hex == row.publicKey.lowercased())
        let signature = try Schnorr.sign(
            message: [UInt8](hex: row.message), keypair: keypair, auxRandom: [UInt8](hex: row.auxRand))
        #expect(signature.hexString == row.signature.lowercased())
    }

    @Test(arguments: try BIP340Row.load())
    func verificationGivesTheListedResult(_ row: BIP340Row) throws {
        // A public key that is not on the curve can only fail verification.
        let verified: Bool
        if let key = try? PublicKey(bytes: [UInt8](hex: row.publicKey)) {
            verified = Schnorr.verify(
                signature: try [UInt8](hex: row.signature), message: try [UInt8](hex: row.message), publicKey: key)
        } else {
            verified = false
        }
        #expect(verified == row.valid)
    }

    @Test func secretKeyRangeIsEnforced() {
        #expect(throws: NostrError(.invalidSecretKey, "")) { try SecretKey(bytes: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: NostrError(.invalidSecretKey, "")) { try SecretKey(bytes: [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: NostrError(.invalidSecretKey, "")) { try SecretKey(bytes: [1, 2, 3]) }
    }

    @Test func seededKeyGenerationIsReplayable() {
        var a = TestGenerator(seed: 7)
        var b = TestGenerator(seed: 7)
        var c = TestGenerator(seed: 8)
        let k1 = SecretKey.generate(using: &a)
        let k2 = SecretKey.generate(using: &b)
        let k3 = SecretKey.generate(using: &c)
        #expect(k1 == k2)
        #expect(k1 != k3)
    }
}
