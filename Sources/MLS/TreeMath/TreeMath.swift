// Array-based binary tree arithmetic of RFC 9420 §4.2 and Appendix C. Leaves sit at even node
// indices, parents at odd ones; a tree of n leaves (n a power of two after padding) has
// 2n - 1 nodes. Node indices are UInt32 as on the wire; callers check bounds against the tree.

/// Node-index arithmetic for left-balanced binary trees.
public enum TreeMath {
    /// The level of node `x`: 0 for leaves, the number of trailing one bits otherwise.
    public static func level(_ x: UInt32) -> Int { (~x).trailingZeroBitCount }

    /// The number of nodes needed for `leaves` leaves.
    public static func nodeWidth(_ leaves: UInt32) -> UInt32 { leaves == 0 ? 0 : 2 * (leaves - 1) + 1 }

    /// The root of a tree with `leaves` leaves.
    public static func root(_ leaves: UInt32) -> UInt32 {
        let width = nodeWidth(leaves)
        guard width > 0 else { return 0 }
        return (1 << (UInt32.bitWidth - 1 - width.leadingZeroBitCount)) - 1
    }

    /// The left child of parent `x`; nil for a leaf.
    public static func left(_ x: UInt32) -> UInt32? {
        let k = level(x)
        return k == 0 ? nil : x ^ (1 << (k - 1))
    }

    /// The right child of parent `x`; nil for a leaf.
    public static func right(_ x: UInt32) -> UInt32? {
        let k = level(x)
        return k == 0 ? nil : x ^ (3 << (k - 1))
    }

    /// The parent of `x` in a tree with `leaves` leaves; nil for the root.
    public static func parent(_ x: UInt32, leaves: UInt32) -> UInt32? {
        // Outside the tree the climb would never meet the root, so such nodes have no parent.
        guard x != root(leaves), x < nodeWidth(leaves) else { return nil }
        let k = level(x)
        let b = (x >> (k + 1)) & 1
        return (x | (1 << k)) ^ (b << (k + 1))
    }

    /// The other child of `x`'s parent; nil for the root.
    public static func sibling(_ x: UInt32, leaves: UInt32) -> UInt32? {
        guard let p = parent(x, leaves: leaves), let l = left(p), let r = right(p) else { return nil }
        return x < p ? r : l
    }

    /// The parents from `x`'s parent up to the root, excluding `x` itself.
    public static func directPath(_ x: UInt32, leaves: UInt32) -> [UInt32] {
        var path: [UInt32] = []
        var node = x
        while let p = parent(node, leaves: leaves) {
            path.append(p)
            node = p
        }
        return path
    }

    /// The siblings of `x` and of each node of its direct path except the root.
    public static func copath(_ x: UInt32, leaves: UInt32) -> [UInt32] {
        guard x != root(leaves) else { return [] }
        return ([x] + directPath(x, leaves: leaves).dropLast()).compactMap { sibling($0, leaves: leaves) }
    }

    /// True when `x` is in the subtree rooted at `ancestor` (including `ancestor` itself).
    public static func isInSubtree(_ x: UInt32, of ancestor: UInt32) -> Bool {
        let k = level(ancestor)
        return x >> (k + 1) == ancestor >> (k + 1)
    }

    /// The node index of leaf `leaf`. Wrapping, because leaf indices arrive from the wire: callers
    /// bound them by the tree's leaf count, and an out-of-range index must not trap on the way.
    public static func nodeIndex(ofLeaf leaf: UInt32) -> UInt32 { leaf &* 2 }
}
