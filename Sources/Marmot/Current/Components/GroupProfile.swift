import HexEncoding
import TLSCodec

// marmot.group.profile.v1 (0x8001), GroupContext; update = full replacement state.
//
// struct {
//     opaque name<0..256>;           // UTF-8, byte equality, never normalized
//     opaque description<0..4096>;   // UTF-8
// } MarmotGroupProfileV1;
/// The group's display name and description.
package struct GroupProfile: Hashable, Sendable {
    package static let id = AppComponentID.groupProfile
    package static let maximumNameBytes = 256
    package static let maximumDescriptionBytes = 4096

    package var name: String
    package var description: String

    package init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    /// - Throws: `.componentInvalid` (not UTF-8, too long, truncated, trailing bytes).
    package init(bytes: [UInt8]) throws(MarmotError) {
        let id = Self.id
        let (name, description) = try readComponent(bytes, as: id) { reader in
            (try reader.readOpaque(), try reader.readOpaque())
        }
        try requireLength(name, atMost: Self.maximumNameBytes, field: "name", of: id)
        try requireLength(description, atMost: Self.maximumDescriptionBytes, field: "description", of: id)
        self.init(
            name: try componentText(name, field: "name", of: id),
            description: try componentText(description, field: "description", of: id))
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(Array(name.utf8))
        writer.writeOpaque(Array(description.utf8))
        return writer.bytes
    }
}

// marmot.group.admin-policy.v1 (0x8003), GroupContext, required in every group.
//
// struct { opaque xonly_pubkey[32]; } MarmotAdminKeyV1;
// struct {
//     MarmotAdminKeyV1 admins<V>;    // sorted by key bytes, unique, non-empty
// } MarmotAdminPolicyV1;
/// The admin list. Byte rules (length, order, uniqueness, non-empty) are checked here; "every
/// admin has a member leaf" is a resulting-epoch rule, checked with ``requireMembers(_:)``.
package struct AdminList: Hashable, Sendable {
    package static let id = AppComponentID.adminPolicy

    /// 32-byte x-only account keys, strictly ascending.
    package private(set) var admins: [[UInt8]]

    /// - Throws: `.componentInvalid` when the list is empty, not strictly ascending, or a key is not 32 bytes.
    package init(admins: [[UInt8]]) throws(MarmotError) {
        try Self.validate(admins)
        self.admins = admins
    }

    /// - Throws: `.componentInvalid`.
    package init(bytes: [UInt8]) throws(MarmotError) {
        let raw = try readComponent(bytes, as: Self.id) { reader in try reader.readOpaque() }
        guard raw.count % 32 == 0 else {
            throw MarmotError(.componentInvalid, "\(Self.id): admins has \(raw.count) bytes, not a multiple of 32")
        }
        try self.init(admins: stride(from: 0, to: raw.count, by: 32).map { Array(raw[$0..<$0 + 32]) })
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(admins.flatMap { $0 })
        return writer.bytes
    }

    package func contains(_ account: [UInt8]) -> Bool { admins.contains(account) }

    /// The resulting-epoch rule: every admin is the account of some member leaf.
    /// - Throws: `.componentInvalid` naming the first admin with no leaf.
    package func requireMembers(_ memberAccounts: Set<[UInt8]>) throws(MarmotError) {
        for admin in admins where !memberAccounts.contains(admin) {
            throw MarmotError(.componentInvalid, "\(Self.id): admin \(admin.hexString) has no member leaf")
        }
    }

    private static func validate(_ admins: [[UInt8]]) throws(MarmotError) {
        guard !admins.isEmpty else { throw MarmotError(.componentInvalid, "\(id): the admin list is empty") }
        for admin in admins where admin.count != 32 {
            throw MarmotError(.componentInvalid, "\(id): an admin key has \(admin.count) bytes, not 32")
        }
        for (previous, next) in zip(admins, admins.dropFirst()) where !previous.lexicographicallyPrecedes(next) {
            throw MarmotError(
                .componentInvalid, "\(id): admins are not strictly ascending (\(next.hexString) after \(previous.hexString))")
        }
    }
}

// marmot.group.message-retention.v1 (0x8005), GroupContext, optional.
//
// struct {
//     uint64 disappearing_message_secs;   // 0 = disabled; any value valid
// } MarmotMessageRetentionV1;
/// How long application messages should be kept, in seconds (0: forever).
package struct MessageRetention: Hashable, Sendable {
    package static let id = AppComponentID.messageRetention

    package var seconds: UInt64

    package init(seconds: UInt64) { self.seconds = seconds }

    /// - Throws: `.componentInvalid` unless exactly 8 bytes.
    package init(bytes: [UInt8]) throws(MarmotError) {
        seconds = try readComponent(bytes, as: Self.id) { reader in try reader.readUInt64() }
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.write(seconds)
        return writer.bytes
    }

    /// The NIP-40 `expiration` of an application message created at `createdAt`, or nil when
    /// retention is off or the checked sum overflows (then the sender omits the tag).
    package func expiry(createdAt: UInt64) -> UInt64? {
        guard seconds != 0 else { return nil }
        let (sum, overflow) = createdAt.addingReportingOverflow(seconds)
        return overflow ? nil : sum
    }
}

// marmot.group.lifecycle.v1 (0x800c), GroupContext, required for new groups.
//
// enum { active(0), disbanded(1) } MarmotGroupLifecycleV1;   // exactly one byte
/// Whether the group still lives. `disbanded` is terminal.
package enum GroupLifecycle: UInt8, Hashable, Sendable {
    case active = 0
    case disbanded = 1

    package static let id = AppComponentID.groupLifecycle

    /// - Throws: `.componentInvalid` unless exactly one byte of value 0 or 1.
    package init(bytes: [UInt8]) throws(MarmotError) {
        guard bytes.count == 1, let state = Self(rawValue: bytes[0]) else {
            throw MarmotError(.componentInvalid, "\(Self.id): state must be one byte 0x00 or 0x01, got \(bytes.count) bytes")
        }
        self = state
    }

    package func encoded() -> [UInt8] { [rawValue] }
}
