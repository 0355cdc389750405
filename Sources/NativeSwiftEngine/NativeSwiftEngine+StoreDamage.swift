// Boundary 8 of the restart matrix (marmot-protocol/marmot, foundation/conformance.md, "Crash and
// restart scenarios": missing or corrupt material; docs/restart-matrix.md): a scenario that crashes
// a member can have one of its groups' records damaged while the member is down. Only the engine
// knows its file's format, so the engine made at the restart does it, before it reads the file;
// the load then meets the damage exactly as it would meet a disk's (`groupIsolation`).
import EngineInterface
import TLSCodec

extension NativeSwiftEngine {
    /// Damages group `damage.group`'s record in the state file at `stateFile`: `corrupt` flips the
    /// record's first two bytes (the MLS state's cipher suite, then one no build knows) and keeps
    /// it in place; `missing` removes the record and the Welcome the group was joined by.
    /// - Throws: `.storage` or `.invalidStateFile` when the file cannot be read or written, and
    ///   `.unknownGroup` when it holds no record of the group (a damage that damages nothing).
    static func damage(_ damage: StoreDamage, stateFile: String) throws(EngineError) {
        guard var state = try loadState(from: stateFile)?.state, let record = state.groups[damage.group] else {
            throw EngineError(.unknownGroup, "the state file holds no record of group \(damage.group.hex) to damage")
        }
        state.groups[damage.group] = nil
        switch damage.kind {
        case .corrupt:
            var writer = TLSWriter()
            record.encodeState(to: &writer)
            var bytes = writer.bytes
            guard bytes.count >= 2 else { throw EngineError(.internal, "group \(damage.group.hex)'s record is too short to damage") }
            bytes[0] ^= 0xFF
            bytes[1] ^= 0xFF
            // Written back as the bytes of a record that did not load; the next load decodes them
            // afresh and finds them damaged.
            state.unrecoverable[damage.group] = UnrecoverableGroup(bytes: bytes, reason: "damaged by the scenario")
        case .missing:
            state.joinedWelcomes[damage.group] = nil
        }
        try writeAtomically(EngineStateFile.encode(state), to: stateFile)
    }
}
