import ConformanceTestSupport
import Foundation
import Testing

/// A vector-driven test must not pass with zero cases: every way a vector file can yield nothing
/// is an error that names the file.
@Suite struct VectorLoadingTests {
    struct Case: Decodable { let name: String }

    @Test func missingFileIsAnErrorNamingIt() {
        let error = #expect(throws: Vectors.VectorFileError.self) { try Vectors.decode([Case].self, from: "nowhere/missing.json") }
        #expect(error?.description.hasPrefix("vectors/nowhere/missing.json: cannot be read") == true)
    }

    @Test func undecodableAndEmptyFilesAreErrorsNamingThem() throws {
        // Real files of the repository, read as something they are not, or as a list that is empty.
        let wrongShape = #expect(throws: Vectors.VectorFileError.self) { try Vectors.decode([Case].self, from: "mls/tree-math.json") }
        #expect(wrongShape?.description.hasPrefix("vectors/mls/tree-math.json: does not decode as Array<Case>") == true)
        #expect(throws: Vectors.VectorFileError.self) { try Vectors.decode([Int].self, from: "bip340/test-vectors.csv") }
        let empty = #expect(throws: Vectors.VectorFileError.self) { try Vectors.nonEmpty([Case](), "events.json (valid events)") }
        #expect(empty?.description == "vectors/events.json (valid events): yields no case")
        #expect(try Vectors.nonEmpty([1, 2], "x") == [1, 2])
    }
}
