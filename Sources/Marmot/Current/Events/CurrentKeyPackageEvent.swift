import ErrorCodes
import HexEncoding
import MLS
import Nostr

// transports/nostr.md, "KeyPackage publication" (current profile): kind 30443, authored by the
// account, content = base64(TLS MLSMessage{version, wire_format = mls_key_package (5), KeyPackage}),
// no `encoding` tag. Tags (exact cardinality; MDK v0.11.0 writes them in this order):
//   ["d", <64 lower-case hex: random publication slot>]          exactly one tag, one value
//   ["mls_protocol_version", "1.0"]                              exactly one tag, one value
//   ["i", <lower-case hex KeyPackageRef>]                         exactly one tag, one value
//   ["mls_ciphersuite", "0x0001"]                                 id list
//   ["mls_extensions", "0x0006", …]                               id list: the leaf's capability extensions
//   ["mls_proposals", "0x0008", …]                                id list: the leaf's capability proposals
//   ["app_components", "0x8001", …, "0x8009", …]                  id list: the leaf's supported components
//                                                                  without 0x0001
// MDK writes each id list ascending, whatever the order in the leaf; we build the same and accept any order.
// An id list is one tag with at least one value, each "0x" + four lower-case hex digits, no repeats.
/// Building and validating current-profile key-package events.
package enum CurrentKeyPackageEvent {
    /// The two dialects a key-package event can be written in.
    package enum Dialect: Hashable, Sendable {
        /// MIP-00 as MDK 0.8.0 writes it: bare KeyPackage content, `encoding` tag, 0xF2EE, no `app_components`.
        case legacy
        case current
    }

    /// Which dialect `event` is written in, from its kind and tags alone (before any decoding):
    /// kind 443, or a 30443 with no `app_components` tag, is legacy.
    package static func dialect(of event: Event) -> Dialect {
        if event.kind == .keyPackageLegacy { return .legacy }
        return event.tags.contains { $0.first == "app_components" } ? .current : .legacy
    }

    /// The tags of a key package whose leaf is `keyPackage.leafNode`, in MDK's order.
    package static func tags(keyPackage: KeyPackage, reference: [UInt8], slot: [UInt8]) throws(MarmotError) -> [[String]] {
        let leaf = keyPackage.leafNode
        guard let dictionary = try AppDataDictionary.marmot(in: leaf.extensions), let supported = try AppComponents.marmot(in: dictionary)
        else {
            throw MarmotError(.proofNotAdvertised, "the leaf has no app_components list to advertise")
        }
        return [
            ["d", slot.hexString],
            ["mls_protocol_version", "1.0"],
            ["i", reference.hexString],
            ["mls_ciphersuite", KeyPackageEvent.hexTag(keyPackage.cipherSuite)],
            ["mls_extensions"] + leaf.capabilities.extensions.sorted().map(KeyPackageEvent.hexTag),
            ["mls_proposals"] + leaf.capabilities.proposals.sorted().map(KeyPackageEvent.hexTag),
            ["app_components"] + supported.ids.filter { $0 != .appComponents }.sorted().map(\.hexTag),
        ]
    }

    /// The signed event publishing `keyPackage` in publication slot `slot` (32 bytes, kept by the caller).
    package static func make(
        keyPackage: KeyPackage, slot: [UInt8], author: Keypair, createdAt: UInt64,
        using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Event {
        let reference = try mls { () throws(MLSError) in try keyPackage.reference(suite: MarmotCapabilities.suite) }
        let content = Base64Content.encode(try tlsEncoded(MLSMessage(body: .keyPackage(keyPackage))))
        let tags = try tags(keyPackage: keyPackage, reference: reference, slot: slot)
        return try nostr { () throws(NostrError) in
            try UnsignedEvent(pubkey: author.publicKey, createdAt: createdAt, kind: .keyPackage, tags: tags, content: content)
                .signed(with: author, using: &generator)
        }
    }

    /// A key-package event checked the way an inviter checks it before adding its author.
    package struct Validated: Hashable, Sendable {
        package let event: Event
        package let keyPackage: KeyPackage
        package let reference: [UInt8]
        /// The leaf's components and its verified identity proof.
        package let leaf: LeafComponents
        /// The `app_components` tag's ids.
        package let advertised: [AppComponentID]
        package let lastResort: Bool
    }

    /// The longest KeyPackage lifetime foundation/key-packages.md accepts: 84 days and one hour.
    package static let maximumLifetime: UInt64 = 7_261_200

    /// Validates a current-profile key-package event, in this order: id and signature; dialect
    /// (a legacy event is `.profileMismatch`, so an inviter can tell its user the contact must
    /// upgrade); tag cardinality; content; MLS validity and lifetime at `now`; `i` against the
    /// KeyPackageRef; credential against the author; the leaf's identity proof; tags against the leaf.
    /// - Throws: `.keyPackageBadEvent`, `.profileMismatch`, `.keyPackageWrongKind`, `.keyPackageInvalidTag`,
    ///   `.invalidBase64`, `.keyPackageInvalid`, `.keyPackageExpired`, `.keyPackageRefMismatch`,
    ///   `.keyPackageIdentityMismatch`, the `identityProof.*` codes.
    package static func validate(_ event: Event, now: UInt64) throws(MarmotError) -> Validated {
        do { try event.verify() } catch { throw MarmotError(.keyPackageBadEvent, error.reason) }
        guard dialect(of: event) == .current else {
            throw MarmotError(
                .profileMismatch, "a legacy (MIP-00, MDK 0.8.0) key-package event; the current profile needs kind 30443 with app_components"
            )
        }
        guard event.kind == .keyPackage else { throw MarmotError(.keyPackageWrongKind, "kind \(event.kind) is not 30443") }
        let tags = try TagReader(event.tags)
        let keyPackage = try decodeContent(event.content)
        let reference = try KeyPackageEvent.checkKeyPackage(keyPackage, of: event, statedRef: tags.reference, now: now)
        if case .keyPackage(let lifetime) = keyPackage.leafNode.source,
            lifetime.notAfter &- lifetime.notBefore > maximumLifetime || lifetime.notAfter < lifetime.notBefore
        {
            throw MarmotError(
                .keyPackageInvalid, "lifetime \(lifetime.notBefore)...\(lifetime.notAfter) is longer than \(maximumLifetime) s")
        }
        let leaf = try LeafComponents(verifying: keyPackage.leafNode, suite: keyPackage.cipherSuite)
        try tags.requireAgreement(with: keyPackage, supported: leaf.supported)
        return Validated(
            event: event, keyPackage: keyPackage, reference: reference, leaf: leaf, advertised: tags.components,
            lastResort: try LeafComponents.isLastResort(keyPackage))
    }

    /// The KeyPackage inside an `mls_key_package` MLSMessage; a bare KeyPackage (the legacy
    /// framing) is `.profileMismatch`.
    static func decodeContent(_ content: String) throws(MarmotError) -> KeyPackage {
        let bytes = try Base64Content.decode(content)
        if let message = try? MLSMessage(tlsBytes: bytes) {
            guard case .keyPackage(let keyPackage) = message.body else {
                throw MarmotError(.keyPackageInvalid, "MLSMessage wire format \(message.body.wireFormat) is not mls_key_package")
            }
            return keyPackage
        }
        if (try? KeyPackage(tlsBytes: bytes)) != nil {
            throw MarmotError(.profileMismatch, "the content is a bare KeyPackage (legacy framing), not an MLSMessage")
        }
        throw MarmotError(.keyPackageInvalid, "the content is not a TLS MLSMessage carrying a KeyPackage")
    }

    /// The tags of transports/nostr.md's table, read with exact cardinality: a required tag that
    /// is missing, repeated, valueless or with extra values is malformed (never "the first one").
    struct TagReader {
        let reference: String
        let suites: [UInt16]
        let extensions: [UInt16]
        let proposals: [UInt16]
        let components: [AppComponentID]

        init(_ tags: [[String]]) throws(MarmotError) {
            let slot = try Self.single("d", in: tags)
            guard slot.count == 64, Self.isLowerHex(slot) else {
                throw MarmotError(.keyPackageInvalidTag, "d must be 64 lower-case hex characters")
            }
            guard try Self.single("mls_protocol_version", in: tags) == "1.0" else {
                throw MarmotError(.keyPackageInvalidTag, "mls_protocol_version must be 1.0")
            }
            reference = try Self.single("i", in: tags)
            guard !reference.isEmpty, reference.count % 2 == 0, Self.isLowerHex(reference) else {
                throw MarmotError(.keyPackageInvalidTag, "i must be the lower-case hex KeyPackageRef")
            }
            suites = try Self.idList("mls_ciphersuite", in: tags)
            extensions = try Self.idList("mls_extensions", in: tags)
            proposals = try Self.idList("mls_proposals", in: tags)
            components = try Self.idList("app_components", in: tags).map { AppComponentID($0) }
            guard components.contains(AccountIdentityProof.component) else {
                throw MarmotError(.keyPackageInvalidTag, "app_components must list 0x8009")
            }
        }

        /// The tags name what the key package holds: its suite, and only extensions, proposals
        /// and components its leaf supports (the tags are a fetch filter; a filter that promises
        /// more than the leaf has would invite the author into groups it must refuse). The leaf
        /// also supports what every current group requires: app_data_dictionary and app_data_update.
        func requireAgreement(with keyPackage: KeyPackage, supported: AppComponents) throws(MarmotError) {
            let capabilities = keyPackage.leafNode.capabilities
            guard suites == [keyPackage.cipherSuite] else {
                throw MarmotError(.keyPackageInvalidTag, "mls_ciphersuite does not name the key package's suite only")
            }
            guard Set(extensions).isSubset(of: capabilities.extensions), Set(proposals).isSubset(of: capabilities.proposals),
                Set(components).isSubset(of: supported.ids)
            else { throw MarmotError(.keyPackageInvalidTag, "a tag lists an id the leaf does not support") }
            guard capabilities.extensions.contains(CurrentProfileCodePoints.appDataDictionary),
                capabilities.proposals.contains(CurrentProfileCodePoints.appDataUpdate)
            else {
                throw MarmotError(.keyPackageInvalid, "the leaf does not support app_data_dictionary (0x0006) and app_data_update (0x0008)")
            }
        }

        static func single(_ name: String, in tags: [[String]]) throws(MarmotError) -> String {
            let matches = tags.filter { $0.first == name }
            guard matches.count == 1, matches[0].count == 2 else {
                throw MarmotError(.keyPackageInvalidTag, "\(name) must be exactly one tag with exactly one value, found \(matches.count)")
            }
            return matches[0][1]
        }

        static func idList(_ name: String, in tags: [[String]]) throws(MarmotError) -> [UInt16] {
            let matches = tags.filter { $0.first == name }
            guard matches.count == 1, matches[0].count >= 2 else {
                throw MarmotError(.keyPackageInvalidTag, "\(name) must be exactly one tag with at least one value")
            }
            var ids: [UInt16] = []
            for text in matches[0].dropFirst() {
                guard text.count == 6, text.hasPrefix("0x"), isLowerHex(String(text.dropFirst(2))),
                    let id = UInt16(text.dropFirst(2), radix: 16)
                else {
                    throw MarmotError(.keyPackageInvalidTag, "\(name) value \(text) is not 0x + four lower-case hex digits")
                }
                ids.append(id)
            }
            guard Set(ids).count == ids.count else { throw MarmotError(.keyPackageInvalidTag, "\(name) repeats a value") }
            return ids
        }

        static func isLowerHex(_ text: String) -> Bool {
            text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
    }
}
