// The secret tree's ratchet state in the engine state file (docs/engine-state-format.md). It must
// survive a restart exactly: a ratchet that came back at an earlier generation would hand out a
// key twice (a reused AEAD nonce), and one that lost its skipped keys could no longer read
// messages that arrived out of order.
//
// struct {
//     uint32 generation;
//     opaque key<V>;                      // Nk bytes
//     opaque nonce<V>;                    // Nn bytes
// } RatchetKeyState;
//
// struct {
//     uint32 generation;                  // the next generation this ratchet derives
//     opaque secret<V>;                   // Nh bytes: the ratchet secret at `generation`
//     Bool exhausted;
//     RatchetKeyState skipped<V>;         // keys of skipped generations, ascending
// } SenderRatchetState;
//
// struct { uint32 node; opaque secret<V>; } NodeSecret;
// struct { uint32 leaf; SenderRatchetState ratchet; } RatchetEntry;
//
// struct {
//     uint32 leaf_count;
//     NodeSecret node_secrets<V>;         // secrets not yet consumed, ascending by node
//     RatchetEntry handshake<V>;          // ascending by leaf
//     RatchetEntry application<V>;        // ascending by leaf
// } SecretTreeState;
import TLSCodec

extension SecretTree {
    package func encodeState(to writer: inout TLSWriter) {
        writer.write(leafCount)
        writer.writeIndexedBytes(nodeSecrets)
        for ratchets in [handshake, application] {
            writer.writeMap(ratchets, by: <) { w, leaf, ratchet in
                w.write(leaf)
                ratchet.encodeState(to: &w)
            }
        }
    }

    /// Reads a secret tree of a group whose ratchet tree has `expectedLeafCount` leaves.
    package init(state reader: inout TLSReader, suite: CipherSuite, expectedLeafCount: UInt32) throws(TLSCodecError) {
        let leafCount = try reader.readUInt32()
        guard leafCount == expectedLeafCount else {
            throw TLSCodecError(.inconsistentState, "secret tree of \(leafCount) leaves for a ratchet tree of \(expectedLeafCount)")
        }
        let nodeSecrets = try reader.readIndexedBytes("secret tree node secrets")
        let width = TreeMath.nodeWidth(leafCount)
        for (node, secret) in nodeSecrets {
            guard node < width else { throw TLSCodecError(.inconsistentState, "secret tree node \(node) outside a tree of \(width) nodes") }
            guard secret.count == suite.hashLength else {
                throw TLSCodecError(.inconsistentState, "secret tree node \(node) secret of \(secret.count) bytes")
            }
        }
        func ratchets(_ what: String) throws(TLSCodecError) -> [UInt32: SenderRatchet] {
            let map = try reader.readMap(what, by: <) { (r: inout TLSReader) throws(TLSCodecError) in
                (try r.readUInt32(), try SenderRatchet(state: &r, suite: suite))
            }
            if let leaf = map.keys.first(where: { $0 >= leafCount }) {
                throw TLSCodecError(.inconsistentState, "\(what) ratchet for leaf \(leaf) of \(leafCount)")
            }
            return map
        }
        let handshake = try ratchets("handshake")
        let application = try ratchets("application")
        self.init(suite: suite, encryptionSecret: [], leafCount: leafCount)
        self.nodeSecrets = nodeSecrets
        self.handshake = handshake
        self.application = application
    }
}

extension SenderRatchet {
    func encodeState(to writer: inout TLSWriter) {
        writer.write(generation)
        writer.writeOpaque(secret)
        writer.writeBool(exhausted)
        writer.writeMap(skipped, by: <) { w, _, key in
            w.write(key.generation)
            w.writeOpaque(key.key)
            w.writeOpaque(key.nonce)
        }
    }

    init(state reader: inout TLSReader, suite: CipherSuite) throws(TLSCodecError) {
        let generation = try reader.readUInt32()
        let secret = try reader.readOpaque(exactly: suite.hashLength, "ratchet secret")
        let exhausted = try reader.readBool()
        let skipped = try reader.readMap("skipped keys", by: <) { (r: inout TLSReader) throws(TLSCodecError) in
            let key = RatchetKey(
                generation: try r.readUInt32(), key: try r.readOpaque(exactly: suite.aeadKeyLength, "skipped key"),
                nonce: try r.readOpaque(exactly: suite.aeadNonceLength, "skipped nonce"))
            return (key.generation, key)
        }
        // The ratchet never keeps more (SenderRatchet.key(for:) prunes), so more is not a state of ours.
        guard skipped.count <= Self.maximumSkippedKeys else {
            throw TLSCodecError(.inconsistentState, "\(skipped.count) skipped keys, more than \(Self.maximumSkippedKeys)")
        }
        self.init(suite: suite, secret: secret)
        self.generation = generation
        self.exhausted = exhausted
        self.skipped = skipped
    }
}
