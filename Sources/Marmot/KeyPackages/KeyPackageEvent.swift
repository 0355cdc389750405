import ErrorCodes
import HexEncoding
import MLS
import Nostr

extension MarmotError.Code {
    /// Not kind 30443 or 443.
    package static let keyPackageWrongKind = Self("keyPackage.wrongKind")
    /// A required tag is missing or has a wrong value.
    package static let keyPackageInvalidTag = Self("keyPackage.invalidTag")
    /// The `i` tag differs from the KeyPackageRef of the content.
    package static let keyPackageRefMismatch = Self("keyPackage.refMismatch")
    /// The credential identity is not the event author.
    package static let keyPackageIdentityMismatch = Self("keyPackage.identityMismatch")
    /// The content is not a valid KeyPackage (decoding, signatures, keys, suite).
    package static let keyPackageInvalid = Self("keyPackage.invalid")
    /// The KeyPackage lifetime does not include the validation time.
    package static let keyPackageExpired = Self("keyPackage.expired")
    /// The Nostr event id or signature does not verify.
    package static let keyPackageBadEvent = Self("keyPackage.badEvent")
}

// MIP-00 key-package event (MDK 0.8.0 tags, in this order):
//   kind 30443 (addressable) or legacy 443, content = base64(TLS KeyPackage)
//   ["d", hex32]                         30443 only
//   ["mls_protocol_version", "1.0"]
//   ["mls_ciphersuite", "0x0001"]
//   ["mls_extensions", "0x000a", "0xf2ee"]
//   ["mls_proposals", "0x000a"]
//   ["relays", url…]
//   ["i", hex(KeyPackageRef)]
//   ["-"]                                NIP-70, optional
//   ["client", name]
//   ["encoding", "base64"]
/// Building and validating MIP-00 key-package events.
package enum KeyPackageEvent {
    /// The tags of a key package: the 30443 list (with `d`) and the legacy 443 list (without).
    package static func tags(
        keyPackageRef: [UInt8], dTag: String, relays: [String], protected: Bool, client: String
    ) -> (tags: [[String]], legacyTags: [[String]]) {
        var common: [[String]] = [
            ["mls_protocol_version", "1.0"],
            ["mls_ciphersuite", hexTag(MarmotCapabilities.suite.id)],
            ["mls_extensions"] + MarmotCapabilities.keyPackageExtensions.map(hexTag),
            ["mls_proposals"] + MarmotCapabilities.proposals.map(hexTag),
            ["relays"] + relays,
            ["i", keyPackageRef.hexString],
        ]
        if protected { common.append(["-"]) }
        common += [["client", client], Base64Content.tag]
        return ([["d", dTag]] + common, common)
    }

    /// `0x%04x`, lower case, as MDK writes type numbers in tags.
    package static func hexTag(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A key-package event checked the way a group creator checks it before inviting its author.
    package struct Validated: Hashable, Sendable {
        package let event: Event
        package let keyPackage: KeyPackage
        /// RFC 9420 KeyPackageRef, equal to the `i` tag when present.
        package let reference: [UInt8]
    }

    /// Validates tags, content, KeyPackage signatures, lifetime at `now`, and that the credential is the
    /// author. Unlike MDK 0.8.0 it also verifies the event id and signature.
    /// - Throws: the `keyPackage.*` codes, `.invalidEncoding`, `.invalidBase64`.
    package static func validate(_ event: Event, now: UInt64) throws(MarmotError) -> Validated {
        guard event.kind == .keyPackage || event.kind == .keyPackageLegacy || !MarmotReceiverCheck.keyPackageKind.isOn else {
            throw MarmotError(.keyPackageWrongKind, "kind \(event.kind) is not 30443 or 443")
        }
        if MarmotReceiverCheck.keyPackageEventSignature.isOn {
            do { try event.verify() } catch { throw MarmotError(.keyPackageBadEvent, error.reason) }
        }
        try checkTags(event.tags, addressable: event.kind == .keyPackage)
        let keyPackage: KeyPackage
        do { keyPackage = try KeyPackage(tlsBytes: try Base64Content.decode(event.content)) } catch let error as MarmotError {
            throw error
        } catch {
            throw MarmotError(.keyPackageInvalid, "content is not a TLS KeyPackage: \(error)")
        }
        let reference = try checkKeyPackage(keyPackage, of: event, statedRef: value(of: "i", in: event.tags), now: now)
        return Validated(event: event, keyPackage: keyPackage, reference: reference)
    }

    /// The checks both profiles make on a decoded key package: MLS validity in Marmot's suite,
    /// lifetime at `now`, the `i` tag against the KeyPackageRef, the credential against the author.
    /// - Returns: the KeyPackageRef.
    /// - Throws: `.keyPackageInvalid`, `.keyPackageExpired`, `.keyPackageRefMismatch`, `.keyPackageIdentityMismatch`.
    static func checkKeyPackage(
        _ keyPackage: KeyPackage, of event: Event, statedRef: String?, now: UInt64
    ) throws(MarmotError) -> [UInt8] {
        let suite = MarmotCapabilities.suite
        do { try keyPackage.validate(suite: suite, now: MarmotReceiverCheck.keyPackageLifetime.isOn ? now : nil) } catch {
            throw MarmotError(error.code == .expired ? .keyPackageExpired : .keyPackageInvalid, error.description)
        }
        let reference = try mls { () throws(MLSError) in try keyPackage.reference(suite: suite) }
        if let statedRef, statedRef.lowercased() != reference.hexString, MarmotReceiverCheck.keyPackageRef.isOn {
            throw MarmotError(.keyPackageRefMismatch, "i tag \(statedRef) is not the KeyPackageRef \(reference.hexString)")
        }
        guard case .basic(let identity) = keyPackage.leafNode.credential,
            identity == event.pubkey.bytes || !MarmotReceiverCheck.keyPackageAuthor.isOn
        else {
            throw MarmotError(.keyPackageIdentityMismatch, "credential identity is not the event author \(event.pubkey.hex)")
        }
        return reference
    }

    /// The tag rules of MIP-00, each under its receiver-check switch.
    static func checkTags(_ tags: [[String]], addressable: Bool) throws(MarmotError) {
        if addressable, MarmotReceiverCheck.keyPackageDTag.isOn {
            guard let d = value(of: "d", in: tags), d.count == 64, (try? [UInt8](hex: d)) != nil else {
                throw MarmotError(.keyPackageInvalidTag, "kind 30443 needs a d tag of 64 hex characters")
            }
        }
        guard value(of: "mls_protocol_version", in: tags) == "1.0" || !MarmotReceiverCheck.keyPackageVersionTag.isOn else {
            throw MarmotError(.keyPackageInvalidTag, "mls_protocol_version must be 1.0")
        }
        guard
            value(of: "mls_ciphersuite", in: tags)?.lowercased() == hexTag(MarmotCapabilities.suite.id)
                || !MarmotReceiverCheck.keyPackageSuiteTag.isOn
        else { throw MarmotError(.keyPackageInvalidTag, "mls_ciphersuite must be 0x0001") }
        let extensions = Set((tags.first { $0.first == "mls_extensions" } ?? []).dropFirst().map { $0.lowercased() })
        guard
            extensions.isSuperset(of: MarmotCapabilities.keyPackageExtensions.map(hexTag))
                || !MarmotReceiverCheck.keyPackageExtensionsTag.isOn
        else { throw MarmotError(.keyPackageInvalidTag, "mls_extensions must list 0x000a and 0xf2ee") }
        let relays = (tags.first { $0.first == "relays" } ?? []).dropFirst()
        guard (!relays.isEmpty && relays.allSatisfy(RelayURL.isValid)) || !MarmotReceiverCheck.keyPackageRelaysTag.isOn else {
            throw MarmotError(.keyPackageInvalidTag, "relays tag needs at least one ws(s):// URL")
        }
        if MarmotReceiverCheck.keyPackageEncodingTag.isOn { try Base64Content.requireTag(in: tags) }
        if MarmotReceiverCheck.keyPackageProposalsTag.isOn {
            if let proposals = tags.first(where: { $0.first == "mls_proposals" }) {
                guard proposals == ["mls_proposals"] + MarmotCapabilities.proposals.map(hexTag) else {
                    throw MarmotError(.keyPackageInvalidTag, "mls_proposals must be exactly [\"mls_proposals\",\"0x000a\"]")
                }
            } else if addressable {
                throw MarmotError(.keyPackageInvalidTag, "kind 30443 needs an mls_proposals tag")
            }
        }
        if value(of: "i", in: tags) == nil, addressable, MarmotReceiverCheck.keyPackageRef.isOn {
            throw MarmotError(.keyPackageInvalidTag, "kind 30443 needs an i tag")
        }
    }

    static func value(of name: String, in tags: [[String]]) -> String? {
        guard let tag = tags.first(where: { $0.first == name }), tag.count >= 2 else { return nil }
        return tag[1]
    }
}

/// The relay URLs Marmot accepts in tags and group data: ws:// or wss:// with a host.
package enum RelayURL {
    package static func isValid(_ url: String) -> Bool {
        for scheme in ["wss://", "ws://"] where url.hasPrefix(scheme) {
            let rest = url.dropFirst(scheme.count)
            return !rest.isEmpty && !rest.hasPrefix("/") && !rest.contains(where: \.isWhitespace)
        }
        return false
    }
}
