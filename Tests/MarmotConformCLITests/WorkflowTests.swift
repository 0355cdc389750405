import ConformanceTestSupport
import Foundation
import Testing

/// The GitHub Actions gate (.github/workflows/conformance.yml) splits ci/conformance over a matrix
/// of parts. Together the parts must run exactly the gate's units: none twice, none left out, every
/// leg present. The units come from `ci/conformance --list [--shard K/N]` run with the built binary,
/// so a leg that forgot to pass `--shard` on, a matrix that names too few parts, or a workflow whose
/// `--shard` denominator disagrees with its matrix all fail here.
@Suite(.serialized) struct WorkflowTests {
    static let workflow = Vectors.repositoryRoot.appendingPathComponent(".github/workflows/conformance.yml")
    static let script = Vectors.repositoryRoot.appendingPathComponent("ci/conformance")
    /// Every leg ci/conformance runs, by report name.
    static let legs = ["mdk", "swift", "mixed", "races-mdk", "races-swift", "races-mixed", "current", "cross-profile", "matrix"]

    /// What the workflow declares: the matrix's part numbers and the N of `--shard "…/N"`.
    struct Declared: Equatable {
        let parts: [Int]
        let count: Int
    }

    enum Problem: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case partsAreNotOneToN(Declared)
        case runTwice(String)
        case leftOut(String)
        case legMissing(String)
        case emptyPart(Int)

        var description: String {
            switch self {
            case .unreadable(let what): "the workflow does not say \(what)"
            case .partsAreNotOneToN(let declared): "matrix parts \(declared.parts) are not 1...\(declared.count)"
            case .runTwice(let unit): "run by two parts: \(unit)"
            case .leftOut(let unit): "run by no part: \(unit)"
            case .legMissing(let leg): "the gate lists no unit of leg \(leg)"
            case .emptyPart(let part): "part \(part) runs nothing"
            }
        }
    }

    static func declared(in workflow: String) -> Result<Declared, Problem> {
        guard let partsLine = workflow.firstMatch(of: /shard:\s*\[([0-9,\s]+)\]/) else {
            return .failure(.unreadable("its matrix of parts (shard: [1, 2, …])"))
        }
        guard let countMatch = workflow.firstMatch(of: /ci\/conformance --shard "\$\{\{ matrix\.shard \}\}\/([0-9]+)"/),
            let count = Int(countMatch.1)
        else { return .failure(.unreadable("how many parts ci/conformance is split into (--shard \"${{ matrix.shard }}/N\")")) }
        let parts = partsLine.1.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return .success(Declared(parts: parts, count: count))
    }

    /// Checks `declared` against the gate's units: `whole` is `ci/conformance --list`, `part(k)` its
    /// `--shard k/N` listing.
    static func problems(_ declared: Declared, whole: [String], part: (Int) throws -> [String]) rethrows -> [Problem] {
        var problems: [Problem] = []
        if declared.parts != Array(1...max(declared.count, 1)) { problems.append(.partsAreNotOneToN(declared)) }
        var runs: [String: Int] = [:]
        for k in declared.parts {
            let units = try part(k)
            if units.isEmpty { problems.append(.emptyPart(k)) }
            for unit in units { runs[unit, default: 0] += 1 }
        }
        for unit in Set(whole).sorted() {
            switch runs[unit, default: 0] {
            case 0: problems.append(.leftOut(unit))
            case 1: break
            default: problems.append(.runTwice(unit))
            }
        }
        for unit in runs.keys.sorted() where !whole.contains(unit) { problems.append(.leftOut(unit)) }
        let present = Set(whole.compactMap { $0.split(separator: " ").first.map(String.init) })
        problems += legs.filter { !present.contains($0) }.map(Problem.legMissing)
        return problems
    }

    /// `ci/conformance --list` with the built binary (no setup, no build).
    static func list(shard: String?) throws -> [String] {
        let binary = try #require(RunAndReplayTests.binary, "marmot-conform is not built (swift build --build-tests builds it)")
        let output = try RunAndReplayTests.run(
            ["--list"] + (shard.map { ["--shard", $0] } ?? []), executable: script,
            environment: ["MARMOT_CONFORM_BIN": binary.path])
        try #require(output.status == 0, "ci/conformance --list failed: \(output.text)")
        return output.text.split(separator: "\n").map(String.init)
    }

    @Test func thePartsOfTheWorkflowRunExactlyTheGate() throws {
        let text = try String(contentsOf: Self.workflow, encoding: .utf8)
        let declared = try Self.declared(in: text).get()
        #expect(declared.count >= 2, "a gate in one part is no split")
        let whole = try Self.list(shard: nil)
        #expect(whole.count > 500, "the gate lists too few units: \(whole.count)")
        let problems = try Self.problems(declared, whole: whole) { try Self.list(shard: "\($0)/\(declared.count)") }
        #expect(
            problems.isEmpty, "\(problems.count) problem(s), the first: \(problems.prefix(10).map(\.description).joined(separator: "\n"))")
    }

    /// The twin: the same check finds a part left out, a denominator that disagrees with the matrix,
    /// and a leg that is missing.
    @Test func theCoverageCheckFindsWhatIsWrong() throws {
        let whole = ["mdk a.yaml seed 1", "mdk b.yaml seed 1", "swift a.yaml seed 1"]
        let byPart: [Int: [String]] = [1: ["mdk a.yaml seed 1"], 2: ["mdk b.yaml seed 1"], 3: ["swift a.yaml seed 1"]]
        let part: (Int) -> [String] = { byPart[$0] ?? [] }
        let complete = Self.problems(Declared(parts: [1, 2, 3], count: 3), whole: whole, part: part)
        #expect(complete.allSatisfy { if case .legMissing = $0 { true } else { false } }, "\(complete)")
        let twoOfThree = Self.problems(Declared(parts: [1, 2], count: 3), whole: whole, part: part)
        #expect(twoOfThree.contains(.leftOut("swift a.yaml seed 1")))
        #expect(twoOfThree.contains(.partsAreNotOneToN(Declared(parts: [1, 2], count: 3))))
        let twice = Self.problems(Declared(parts: [1, 2, 3], count: 3), whole: whole) { $0 == 2 ? whole : byPart[$0] ?? [] }
        #expect(twice.contains(.runTwice("mdk a.yaml seed 1")))
        let workflow = try String(contentsOf: Self.workflow, encoding: .utf8)
        let wrongCount = workflow.replacingOccurrences(of: #"matrix.shard }}/4""#, with: #"matrix.shard }}/5""#)
        #expect(wrongCount != workflow, "the workflow no longer splits ci/conformance into 4 parts: update this twin")
        if case .success(let declared) = Self.declared(in: wrongCount) {
            #expect(!Self.problems(declared, whole: whole, part: part).isEmpty)
        } else {
            Issue.record("the twin's workflow did not parse")
        }
        #expect(Self.declared(in: "jobs: {}") == .failure(.unreadable("its matrix of parts (shard: [1, 2, …])")))
    }
}
