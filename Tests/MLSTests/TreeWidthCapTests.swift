import Foundation
import TLSCodec
import Testing

@testable import MLS

/// Issue 30, N5: the ratchet-tree reader's width cap (`RatchetTreeNodes.maxNodes`, 2^15 leaves).
/// A tree is refused at the first node past the cap, as it is read: the work and memory a wide
/// tree can ask of a joiner are those of `maxNodes` nodes, whatever its length prefix says.
@Suite struct TreeWidthCapTests {
    /// A ratchet_tree vector of `blanks` blank slots and nothing else (a reader that reads them all
    /// refuses it for its blank last node, after the fact).
    static func blankTree(_ blanks: Int) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeVector { $0.writeBytes(repeatElement(0, count: blanks)) }
        return writer.bytes
    }

    /// The numbers the refusal reports: nodes decoded, and the byte offset it stopped at.
    static func refusal(_ error: TLSCodecError) throws -> (decoded: Int, offset: Int) {
        let text = error.description
        let decoded = try #require(text.firstMatch(of: /refused with (\d+) decoded/)).output.1
        let offset = try #require(text.firstMatch(of: /at byte offset (\d+)/)).output.1
        return (try #require(Int(decoded)), try #require(Int(offset)))
    }

    @Test func aMillionSlotTreeIsRefusedAfterCapNodesWithBoundedMemory() throws {
        let slots = 1_000_000
        let bytes = Self.blankTree(slots)
        let prefix = bytes.count - slots
        do {
            _ = try RatchetTreeNodes(tlsBytes: bytes)
            Issue.record("a tree of a million slots was read")
        } catch {
            #expect(error.code == .lengthTooLarge)
            let (decoded, offset) = try Self.refusal(error)
            // Measured: exactly the cap was decoded, and reading stopped after those bytes.
            #expect(decoded == RatchetTreeNodes.maxNodes)
            #expect(offset == prefix + RatchetTreeNodes.maxNodes)
            // The memory the decoded nodes held at most, against what the whole tree would take.
            let held = decoded * MemoryLayout<Node?>.stride
            let whole = slots * MemoryLayout<Node?>.stride
            #expect(held * 15 < whole, "held \(held) bytes of a tree that would take \(whole)")
        }
    }

    @Test func theCapEdgeIsReadAndOnePastItIsNot() throws {
        #expect(try RatchetTreeNodes(tlsBytes: Self.blankTree(RatchetTreeNodes.maxNodes)).nodes.count == RatchetTreeNodes.maxNodes)
        #expect(throws: TLSCodecError.self) { try RatchetTreeNodes(tlsBytes: Self.blankTree(RatchetTreeNodes.maxNodes + 1)) }
        // Switched off, the same input is read to its end (the cap is the only thing in the way).
        let nodes = try ReceiverCheck.$disabled.withValue([.treeWidth]) {
            try RatchetTreeNodes(tlsBytes: Self.blankTree(RatchetTreeNodes.maxNodes + 1)).nodes.count
        }
        #expect(nodes == RatchetTreeNodes.maxNodes + 1)
    }

    /// The whole path: a Welcome whose GroupInfo carries a million-slot tree is refused by the
    /// joiner with the cap's code, before any tree is built (the sender builds none either).
    @Test func aMillionSlotTreeWelcomeIsRefused() throws {
        do {
            _ = try UncheckedBuilderTests.bobJoins(flaw: .oversizedTree(slots: 1_000_001, hashed: false))
            Issue.record("bob joined by a Welcome of a million-slot tree")
        } catch let error as MLSError {
            #expect(error.code == .treeTooWide, "\(error)")
            #expect(error.description.contains("refused with \(RatchetTreeNodes.maxNodes) decoded"), "\(error)")
        }
    }
}
