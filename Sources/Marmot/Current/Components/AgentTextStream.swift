import MLS
import TLSCodec

// marmot.group.agent-text-stream.quic.v1 (0x8006), GroupContext, experimental; update = full replacement.
//
// uint8 MarmotAgentTextStreamQuicRoleMaskV1;   // receive 0x01, send 0x02, fanout 0x04
// struct {
//     uint8  required_member_roles;     // non-empty, subset of allowed
//     uint8  allowed_member_roles;
//     uint32 max_plaintext_frame_len;   // 1...65519 (first application profile)
//     uint32 replay_ttl_secs;           // <= 300
//     uint16 padding_bucket_bytes;      // reserved, <= 4096
// } MarmotAgentTextStreamQuicV1;
/// The group's policy for live agent text streams over raw QUIC.
package struct AgentTextStreamPolicy: Hashable, Sendable {
    package static let id = AppComponentID.agentTextStream
    package static let maximumFrameLength: UInt32 = 65519
    package static let maximumReplaySeconds: UInt32 = 300
    package static let maximumPaddingBucket: UInt16 = 4096

    package var requiredRoles: AgentStreamRole
    package var allowedRoles: AgentStreamRole
    package var maximumPlaintextFrameLength: UInt32
    package var replaySeconds: UInt32
    package var paddingBucketBytes: UInt16

    /// - Throws: `.componentInvalid` for any value rule of the component.
    package init(bytes: [UInt8]) throws(MarmotError) {
        let id = Self.id
        let fields = try readComponent(bytes, as: id) { reader in
            (try reader.readUInt8(), try reader.readUInt8(), try reader.readUInt32(), try reader.readUInt32(), try reader.readUInt16())
        }
        requiredRoles = AgentStreamRole(rawValue: fields.0)
        allowedRoles = AgentStreamRole(rawValue: fields.1)
        maximumPlaintextFrameLength = fields.2
        replaySeconds = fields.3
        paddingBucketBytes = fields.4
        guard AgentStreamRole.all.isSuperset(of: requiredRoles), AgentStreamRole.all.isSuperset(of: allowedRoles) else {
            throw MarmotError(.componentInvalid, "\(id): a role mask has a bit other than receive, send, fanout")
        }
        guard !requiredRoles.isEmpty, allowedRoles.isSuperset(of: requiredRoles) else {
            throw MarmotError(.componentInvalid, "\(id): required roles must be non-empty and among the allowed roles")
        }
        guard (1...Self.maximumFrameLength).contains(maximumPlaintextFrameLength), replaySeconds <= Self.maximumReplaySeconds,
            paddingBucketBytes <= Self.maximumPaddingBucket
        else { throw MarmotError(.componentInvalid, "\(id): a frame, replay or padding limit is out of range") }
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.write(requiredRoles.rawValue)
        writer.write(allowedRoles.rawValue)
        writer.write(maximumPlaintextFrameLength)
        writer.write(replaySeconds)
        writer.write(paddingBucketBytes)
        return writer.bytes
    }

    /// The resulting-epoch rule: every member leaf advertises every required role.
    /// - Throws: `.componentInvalid` naming the first leaf that lacks one.
    package func requireRoles(of leaves: [(index: UInt32, capabilities: Capabilities)]) throws(MarmotError) {
        for leaf in leaves where !AgentStreamRole(advertisedBy: leaf.capabilities).isSuperset(of: requiredRoles) {
            throw MarmotError(.componentInvalid, "\(Self.id): leaf \(leaf.index) does not advertise every required role")
        }
    }
}
