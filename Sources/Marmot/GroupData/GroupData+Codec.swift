import HexEncoding
import Nostr
import TLSCodec

extension GroupData {
    /// The TLS encoding of the extension body.
    package func encoded() -> [UInt8] {
        var w = TLSWriter()
        w.write(version)
        w.writeBytes(nostrGroupID)
        w.writeOpaque(Array(name.utf8))
        w.writeOpaque(Array(description.utf8))
        w.writeOpaque(admins.flatMap(\.bytes))
        w.writeVector { inner in for relay in relays { inner.writeOpaque(Array(relay.utf8)) } }
        for field in [imageHash, imageKey, imageNonce, imageUploadKey] { w.writeOpaque(field ?? []) }
        return w.bytes
    }

    /// Decodes the extension body strictly: exact image field lengths, valid UTF-8, no trailing bytes.
    /// - Throws: `.invalidGroupData`.
    package init(bytes: [UInt8]) throws(MarmotError) {
        do {
            var r = TLSReader(bytes)
            let version = try r.readUInt16()
            guard version != 0 || !MarmotReceiverCheck.groupDataVersion.isOn else { throw MarmotError(.invalidGroupData, "version 0") }
            // Only the layout below is read: another version's fields may mean something else, so
            // reading them as this one would make up a group state (issue 30, N12).
            guard version == GroupData.currentVersion || version == 0 || !MarmotReceiverCheck.groupDataKnownVersion.isOn else {
                throw MarmotError(.invalidGroupData, "unknown version \(version)")
            }
            let nostrGroupID = Array(try r.readBytes(32))
            let name = try Self.utf8(try r.readOpaque(), field: "name")
            let description = try Self.utf8(try r.readOpaque(), field: "description")
            let adminBytes = try r.readOpaque()
            guard adminBytes.count % 32 == 0 else {
                throw MarmotError(.invalidGroupData, "admin_pubkeys length \(adminBytes.count) is not a multiple of 32")
            }
            var admins: [PublicKey] = []
            for start in stride(from: 0, to: adminBytes.count, by: 32) {
                do { admins.append(try PublicKey(bytes: Array(adminBytes[start..<start + 32]))) } catch {
                    throw MarmotError(.invalidGroupData, "admin key: \(error.reason)")
                }
            }
            try Self.requireAscending(admins, field: "admin_pubkeys")
            let relayBytes = try r.readVector { (inner: inout TLSReader) throws(TLSCodecError) in try inner.readOpaque() }
            var relays: [String] = []
            for raw in relayBytes {
                let relay = try Self.utf8(raw, field: "relay")
                guard RelayURL.isValid(relay) || !MarmotReceiverCheck.groupDataRelays.isOn else {
                    throw MarmotError(.invalidGroupData, "relay \(relay) is not a ws(s):// URL")
                }
                relays.append(relay)
            }
            try Self.requireAscending(relays, field: "relays")
            let images = (
                hash: try Self.optional(try r.readOpaque(), length: 32, field: "image_hash"),
                key: try Self.optional(try r.readOpaque(), length: 32, field: "image_key"),
                nonce: try Self.optional(try r.readOpaque(), length: 12, field: "image_nonce"),
                uploadKey: try Self.optional(try r.readOpaque(), length: 32, field: "image_upload_key")
            )
            try r.finish()
            self.init(
                version: version, nostrGroupID: nostrGroupID, name: name, description: description, admins: admins,
                relays: relays, imageHash: images.hash, imageKey: images.key, imageNonce: images.nonce,
                imageUploadKey: images.uploadKey)
        } catch let error as MarmotError {
            throw error
        } catch {
            throw MarmotError(.invalidGroupData, "\(error)")
        }
    }

    /// A list MIP-01 keeps ascending and distinct is read as written or refused: sorting it
    /// quietly would accept bytes no honest writer produced, so two readers of one GroupContext
    /// could disagree on what it says (issue 30, N12).
    /// (The order is the one `normalized` writes in.)
    private static func requireAscending<T: Comparable>(_ items: [T], field: String) throws(MarmotError) {
        guard MarmotReceiverCheck.groupDataOrder.isOn else { return }
        for index in items.indices.dropFirst() where !(items[index - 1] < items[index]) {
            throw MarmotError(.invalidGroupData, "\(field) is not ascending and distinct at entry \(index)")
        }
    }

    private static func utf8(_ bytes: [UInt8], field: String) throws(MarmotError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw MarmotError(.invalidGroupData, "\(field) is not UTF-8")
        }
        return text
    }

    /// An image field is either absent (empty vector) or exactly `length` bytes.
    private static func optional(_ bytes: [UInt8], length: Int, field: String) throws(MarmotError) -> [UInt8]? {
        if bytes.isEmpty { return nil }
        guard bytes.count == length || !MarmotReceiverCheck.groupDataImages.isOn else {
            throw MarmotError(.invalidGroupData, "\(field) has \(bytes.count) bytes, expected 0 or \(length)")
        }
        return bytes
    }
}
