import MLS
import Testing

/// tree-math.json: root, left, right, parent and sibling of every node for trees of 1…n leaves.
@Suite struct TreeMathVectorTests {
    struct Case: Decodable {
        let n_leaves: UInt32
        let n_nodes: UInt32
        let root: UInt32
        let left: [UInt32?]
        let right: [UInt32?]
        let parent: [UInt32?]
        let sibling: [UInt32?]
    }

    @Test func treeMathVectors() throws {
        try VectorRun.plain("tree-math.json", Case.self) { c, checks in
            checks.equal(TreeMath.nodeWidth(c.n_leaves), c.n_nodes, "n_nodes")
            checks.equal(TreeMath.root(c.n_leaves), c.root, "root")
            for field in [c.left, c.right, c.parent, c.sibling] {
                checks.equal(UInt32(field.count), c.n_nodes, "array length")
            }
            for x in 0..<c.n_nodes {
                let i = Int(x)
                checks.equal(TreeMath.left(x), c.left[i], "left[\(x)]")
                checks.equal(TreeMath.right(x), c.right[i], "right[\(x)]")
                checks.equal(TreeMath.parent(x, leaves: c.n_leaves), c.parent[i], "parent[\(x)]")
                checks.equal(TreeMath.sibling(x, leaves: c.n_leaves), c.sibling[i], "sibling[\(x)]")
            }
        }
    }
}
