// NIP-01 event kinds. A struct over the raw value, not a closed enum, so that every kind a
// relay may carry round-trips; named kinds are static members.

/// A Nostr event kind (0...65535).
public struct Kind: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt16) { rawValue = value }

    public static let metadata: Kind = 0
    public static let textNote: Kind = 1
    public static let deletion: Kind = 5
    public static let chatMessage: Kind = 9
    public static let seal: Kind = 13
    public static let keyPackageLegacy: Kind = 443
    public static let welcome: Kind = 444
    public static let groupEvent: Kind = 445
    public static let giftWrap: Kind = 1059
    public static let inboxRelays: Kind = 10050
    public static let keyPackageRelays: Kind = 10051
    public static let auth: Kind = 22242
    public static let keyPackage: Kind = 30443

    // NIP-01 storage classes. Kinds 45...999 (including Marmot's 443/444/445) belong to no class
    // in the current text; relays treat them as regular, and so do we (`isRegular` is the fallback).

    /// Only the latest event per (pubkey, kind) is kept.
    public var isReplaceable: Bool { rawValue == 0 || rawValue == 3 || (10000..<20000).contains(rawValue) }
    /// Not stored; delivered live only.
    public var isEphemeral: Bool { (20000..<30000).contains(rawValue) }
    /// Only the latest event per (kind, pubkey, `d` tag) is kept.
    public var isAddressable: Bool { (30000..<40000).contains(rawValue) }
    /// Every event is kept.
    public var isRegular: Bool { !isReplaceable && !isEphemeral && !isAddressable }

    public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}
