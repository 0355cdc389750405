import ErrorCodes
import MLS
import Nostr
import TLSCodec

extension MarmotError.Code {
    /// Extension 0xF2EE bytes that do not decode (bad lengths, UTF-8, trailing bytes, version 0).
    package static let invalidGroupData = Self("groupData.invalid")
    /// A GroupContext without the 0xF2EE extension.
    package static let missingGroupData = Self("groupData.missing")
}

// MIP-01 as implemented by MDK 0.8.0 (version 2; every vector has an MLS varint length prefix):
//
// struct {
//     uint16 version;                     // 2
//     opaque nostr_group_id[32];
//     opaque name<V>;                     // UTF-8
//     opaque description<V>;              // UTF-8
//     opaque admin_pubkeys<V>;            // n × 32-byte x-only keys, ascending, distinct
//     RelayURL relays<V>;                 // each opaque url<V>, UTF-8, ascending, distinct
//     opaque image_hash<V>;               // 0 or 32 bytes
//     opaque image_key<V>;                // 0 or 32 bytes
//     opaque image_nonce<V>;              // 0 or 12 bytes
//     opaque image_upload_key<V>;         // 0 or 32 bytes
// } NostrGroupData;                      // GroupContext extension 0xF2EE
/// The Marmot group data carried in the GroupContext: identity, name, admins and relays of a group.
package struct GroupData: Hashable, Sendable {
    /// The extension type in GroupContext and capabilities.
    package static let extensionType: UInt16 = 0xF2EE
    /// The version this implementation writes.
    package static let currentVersion: UInt16 = 2

    package var version: UInt16
    /// The 32-byte id whose hex is the kind-445 `h` tag.
    package var nostrGroupID: [UInt8]
    package var name: String
    package var description: String
    /// Kept ascending and distinct, as on the wire.
    package var admins: [PublicKey] { didSet { admins = Self.normalized(admins) } }
    /// Kept ascending and distinct, as on the wire.
    package var relays: [String] { didSet { relays = Self.normalized(relays) } }
    package var imageHash: [UInt8]?
    package var imageKey: [UInt8]?
    package var imageNonce: [UInt8]?
    package var imageUploadKey: [UInt8]?
    /// Current profile only (component 0x8002): the canonical media type of the decrypted image, which
    /// its AEAD binds as AAD. Never in 0xF2EE: the legacy profile has no such field.
    package var imageMediaType: String?

    package init(
        version: UInt16 = GroupData.currentVersion, nostrGroupID: [UInt8], name: String, description: String,
        admins: [PublicKey], relays: [String], imageHash: [UInt8]? = nil, imageKey: [UInt8]? = nil,
        imageNonce: [UInt8]? = nil, imageUploadKey: [UInt8]? = nil
    ) {
        self.version = version
        self.nostrGroupID = nostrGroupID
        self.name = name
        self.description = description
        self.admins = Self.normalized(admins)
        self.relays = Self.normalized(relays)
        self.imageHash = imageHash
        self.imageKey = imageKey
        self.imageNonce = imageNonce
        self.imageUploadKey = imageUploadKey
    }

    /// hex of `nostrGroupID`: the `h` tag of the group's kind-445 events.
    package var nostrGroupIDHex: String { nostrGroupID.hexString }

    /// The GroupContext extension carrying this data.
    package var mlsExtension: Extension { Extension(type: Self.extensionType, data: encoded()) }

    /// Reads the group data out of GroupContext extensions.
    /// - Throws: `.missingGroupData`, `.invalidGroupData`.
    package init(extensions: [Extension]) throws(MarmotError) {
        guard let data = extensions.data(ofType: Self.extensionType) else {
            throw MarmotError(.missingGroupData, "no 0xF2EE extension in the GroupContext")
        }
        try self.init(bytes: data)
    }

    /// `extensions` with the 0xF2EE entry replaced by this data (appended when absent), other
    /// extensions kept in place so the GroupContext changes only where the data does.
    package func replacing(in extensions: [Extension]) -> [Extension] {
        guard let index = extensions.firstIndex(where: { $0.type == Self.extensionType }) else {
            return extensions + [mlsExtension]
        }
        var out = extensions
        out[index] = mlsExtension
        return out
    }

    static func normalized<T: Comparable>(_ items: [T]) -> [T] {
        var out: [T] = []
        for item in items.sorted() where out.last != item { out.append(item) }
        return out
    }
}
