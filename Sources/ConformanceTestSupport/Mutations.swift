// Hostile-input helpers: every proper prefix of a valid input, and seeded random mutations of it.
// Decoders under test must return an error (or a value) for each, and never trap.

package enum Mutations {
    /// Every proper prefix of `input`, shortest first (the empty prefix included).
    package static func properPrefixes<C: Collection>(of input: C) -> [C.SubSequence] {
        var out: [C.SubSequence] = []
        var end = input.startIndex
        while end != input.endIndex {
            out.append(input[input.startIndex..<end])
            end = input.index(after: end)
        }
        return out
    }

    /// `count` mutants of `input`: bit flips, byte replacements, insertions, deletions and
    /// duplicated spans, chosen by `generator`.
    package static func mutants(of input: [UInt8], count: Int, using generator: inout some RandomNumberGenerator)
        -> [[UInt8]]
    {
        (0..<count).map { _ in mutate(input, using: &generator) }
    }

    private static func mutate(_ input: [UInt8], using g: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = input
        let edits = Int.random(in: 1...3, using: &g)
        for _ in 0..<edits {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &g)
            switch Int.random(in: 0..<5, using: &g) {
            case 0 where !bytes.isEmpty: bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &g)
            case 1 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &g)
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &g), at: position)
            case 3 where !bytes.isEmpty: bytes.remove(at: position)
            default:
                guard !bytes.isEmpty else { continue }
                let end = min(bytes.count, position + Int.random(in: 1...8, using: &g))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            }
        }
        return bytes
    }
}
