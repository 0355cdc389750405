import TLSCodec

// marmot.group.blossom.image.v1 (0x8002), GroupContext, optional; update = full replacement.
//
// struct {
//     opaque image_hash<0..32>;        // SHA-256 of the encrypted blob
//     opaque image_key<0..32>;         // ChaCha20-Poly1305 key
//     opaque image_nonce<0..12>;
//     opaque image_upload_key<0..32>;  // Nostr secret key of the Blossom upload credential
//     opaque media_type<0..128>;       // UTF-8, canonical media type of the decrypted image
// } MarmotGroupBlossomImageV1;         // absent image: every field empty
/// An encrypted group image stored on Blossom, or the empty (absent) image.
package struct GroupBlossomImage: Hashable, Sendable {
    package static let id = AppComponentID.groupBlossomImage

    package struct Image: Hashable, Sendable {
        package var hash: [UInt8]
        package var key: [UInt8]
        package var nonce: [UInt8]
        package var uploadKey: [UInt8]
        package var mediaType: String

        package init(hash: [UInt8], key: [UInt8], nonce: [UInt8], uploadKey: [UInt8], mediaType: String) {
            self.hash = hash
            self.key = key
            self.nonce = nonce
            self.uploadKey = uploadKey
            self.mediaType = mediaType
        }
    }

    /// nil: the empty state (no image).
    package var image: Image?

    package init(image: Image?) { self.image = image }

    /// - Throws: `.componentInvalid` for a mixed partial state, a wrong field length or a bad media type.
    package init(bytes: [UInt8]) throws(MarmotError) {
        let id = Self.id
        let fields = try readComponent(bytes, as: id) { reader in
            (try reader.readOpaque(), try reader.readOpaque(), try reader.readOpaque(), try reader.readOpaque(), try reader.readOpaque())
        }
        let all = [fields.0, fields.1, fields.2, fields.3, fields.4]
        if all.allSatisfy(\.isEmpty) {
            image = nil
            return
        }
        for (field, name, length) in [
            (fields.0, "image_hash", 32), (fields.1, "image_key", 32), (fields.2, "image_nonce", 12), (fields.3, "image_upload_key", 32),
        ]
        where field.count != length {
            throw MarmotError(.componentInvalid, "\(id): \(name) has \(field.count) bytes, expected \(length) (or an empty image)")
        }
        guard !fields.4.isEmpty else { throw MarmotError(.componentInvalid, "\(id): an image needs a media_type") }
        try requireLength(fields.4, atMost: 128, field: "media_type", of: id)
        image = Image(
            hash: fields.0, key: fields.1, nonce: fields.2, uploadKey: fields.3,
            mediaType: try componentText(fields.4, field: "media_type", of: id))
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        for field in [image?.hash, image?.key, image?.nonce, image?.uploadKey, image.map { Array($0.mediaType.utf8) }] {
            writer.writeOpaque(field ?? [])
        }
        return writer.bytes
    }
}

// marmot.group.avatar-url.v1 (0x8007), GroupContext, optional; update = full replacement.
//
// struct {
//     opaque url<0..2048>;      // empty: no avatar; else a normalized https URL
//     opaque dim<0..256>;       // opaque render hint (by convention "WIDTHxHEIGHT")
//     opaque thumbhash<0..256>; // opaque render hint
// } MarmotGroupAvatarUrlV1;
/// A group avatar by plain https URL, or the empty (absent) avatar.
package struct GroupAvatarURL: Hashable, Sendable {
    package static let id = AppComponentID.groupAvatarURL

    /// Empty: no avatar.
    package var url: String
    package var dimensions: [UInt8]
    package var thumbhash: [UInt8]

    package init(url: String, dimensions: [UInt8] = [], thumbhash: [UInt8] = []) {
        self.url = url
        self.dimensions = dimensions
        self.thumbhash = thumbhash
    }

    /// - Throws: `.componentInvalid` (a URL that is not a normalized public https URL, an
    ///   oversized field, hints without a URL).
    package init(bytes: [UInt8]) throws(MarmotError) {
        let id = Self.id
        let (url, dimensions, thumbhash) = try readComponent(bytes, as: id) { reader in
            (try reader.readOpaque(), try reader.readOpaque(), try reader.readOpaque())
        }
        try requireLength(url, atMost: 2048, field: "url", of: id)
        try requireLength(dimensions, atMost: 256, field: "dim", of: id)
        try requireLength(thumbhash, atMost: 256, field: "thumbhash", of: id)
        if url.isEmpty, !(dimensions.isEmpty && thumbhash.isEmpty) {
            throw MarmotError(.componentInvalid, "\(id): render hints without a url (an absent avatar has every field empty)")
        }
        let text = try componentText(url, field: "url", of: id)
        if !url.isEmpty, let problem = Self.urlProblem(text) {
            throw MarmotError(.componentInvalid, "\(id): url \(problem)")
        }
        self.init(url: text, dimensions: dimensions, thumbhash: thumbhash)
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(Array(url.utf8))
        writer.writeOpaque(dimensions)
        writer.writeOpaque(thumbhash)
        return writer.bytes
    }

    /// Why `text` is not an acceptable avatar URL, or nil.
    static func urlProblem(_ text: String) -> String? {
        guard let url = WebURL(text) else { return "\(text) is not an absolute URL" }
        guard url.scheme == "https" else { return "\(text): the scheme is not https" }
        guard !url.host.isEmpty else { return "\(text) has no host" }
        guard !url.hasUserinfo else { return "\(text) has userinfo" }
        guard url.fragment == nil else { return "\(text) has a fragment" }
        guard !url.hostIsLocalOrPrivate else { return "\(text) names a local, private or non-routable host" }
        if let problem = url.normalizationProblem(defaultPorts: ["https": "443"]) { return "\(text) is not normalized: \(problem)" }
        return nil
    }
}

// marmot.group.encrypted-media.v2 (0x800b), GroupContext; update = full replacement. Lists keep
// the producer's order (endpoint order is fallback priority) and are not sorted.
//
// struct { opaque locator_kind<V>; } MediaLocatorKindV2;
// struct {
//     opaque locator_kind<V>;
//     opaque base_url<1..2048>;
// } BlobStoreEndpointV2;
// struct {
//     opaque              media_format<V>;            // exactly "encrypted-media-v2"
//     MediaLocatorKindV2  allowed_locator_kinds<V>;   // 1..16, unique
//     BlobStoreEndpointV2 default_blob_endpoints<V>;  // 1..16, unique, kinds among the allowed
// } EncryptedMediaPolicyV2;
/// The group's encrypted-media policy: which locator kinds media may use and the default blob stores.
package struct EncryptedMediaPolicy: Hashable, Sendable {
    package static let id = AppComponentID.encryptedMediaV2
    package static let mediaFormat = "encrypted-media-v2"

    package struct Endpoint: Hashable, Sendable {
        package var locatorKind: String
        package var baseURL: String

        package init(locatorKind: String, baseURL: String) {
            self.locatorKind = locatorKind
            self.baseURL = baseURL
        }
    }

    package var allowedLocatorKinds: [String]
    package var endpoints: [Endpoint]

    /// - Throws: `.componentInvalid`.
    package init(allowedLocatorKinds: [String], endpoints: [Endpoint]) throws(MarmotError) {
        let id = Self.id
        guard (1...16).contains(allowedLocatorKinds.count), Set(allowedLocatorKinds).count == allowedLocatorKinds.count else {
            throw MarmotError(.componentInvalid, "\(id): allowed_locator_kinds needs 1 to 16 distinct entries")
        }
        for kind in allowedLocatorKinds where !Self.isLocatorKind(kind) {
            throw MarmotError(.componentInvalid, "\(id): locator kind \(kind) is not 1 to 64 of a-z, 0-9, -")
        }
        guard (1...16).contains(endpoints.count), Set(endpoints).count == endpoints.count else {
            throw MarmotError(.componentInvalid, "\(id): default_blob_endpoints needs 1 to 16 distinct entries")
        }
        for endpoint in endpoints {
            guard allowedLocatorKinds.contains(endpoint.locatorKind) else {
                throw MarmotError(.componentInvalid, "\(id): endpoint kind \(endpoint.locatorKind) is not allowed")
            }
            if let problem = Self.baseURLProblem(endpoint.baseURL) {
                throw MarmotError(.componentInvalid, "\(id): base_url \(problem)")
            }
        }
        self.allowedLocatorKinds = allowedLocatorKinds
        self.endpoints = endpoints
    }

    /// - Throws: `.componentInvalid`.
    package init(bytes: [UInt8]) throws(MarmotError) {
        let id = Self.id
        let (format, kinds, endpoints) = try readComponent(bytes, as: id) { reader in
            (
                try reader.readOpaque(),
                try reader.readVector { (inner: inout TLSReader) throws(TLSCodecError) in try inner.readOpaque() },
                try reader.readVector { (inner: inout TLSReader) throws(TLSCodecError) in (try inner.readOpaque(), try inner.readOpaque()) }
            )
        }
        guard format == Array(Self.mediaFormat.utf8) else {
            throw MarmotError(.componentInvalid, "\(id): media_format is not \(Self.mediaFormat)")
        }
        var parsed: [Endpoint] = []
        for (kind, url) in endpoints {
            try requireLength(url, atMost: 2048, field: "base_url", of: id)
            parsed.append(
                Endpoint(
                    locatorKind: try componentText(kind, field: "locator_kind", of: id),
                    baseURL: try componentText(url, field: "base_url", of: id)))
        }
        var allowed: [String] = []
        for kind in kinds { allowed.append(try componentText(kind, field: "locator_kind", of: id)) }
        try self.init(allowedLocatorKinds: allowed, endpoints: parsed)
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(Array(Self.mediaFormat.utf8))
        writer.writeVector { inner in for kind in allowedLocatorKinds { inner.writeOpaque(Array(kind.utf8)) } }
        writer.writeVector { inner in
            for endpoint in endpoints {
                inner.writeOpaque(Array(endpoint.locatorKind.utf8))
                inner.writeOpaque(Array(endpoint.baseURL.utf8))
            }
        }
        return writer.bytes
    }

    static func isLocatorKind(_ kind: String) -> Bool {
        (1...64).contains(kind.utf8.count)
            && kind.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
    }

    static func baseURLProblem(_ text: String) -> String? {
        guard !text.isEmpty else { return "is empty" }
        guard let url = WebURL(text) else { return "\(text) is not an absolute URL" }
        guard url.scheme == "https" || url.scheme == "http" else { return "\(text): the scheme is not http(s)" }
        guard !url.host.isEmpty, !url.hasUserinfo, url.query == nil, url.fragment == nil else {
            return "\(text) has no host, or has userinfo, a query or a fragment"
        }
        if let problem = url.normalizationProblem(defaultPorts: ["https": "443", "http": "80"]) {
            return "\(text) is not normalized: \(problem)"
        }
        return nil
    }
}
