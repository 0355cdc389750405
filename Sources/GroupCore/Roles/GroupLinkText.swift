import Nostr

/// A group link as a user shares it (seed 001 §3): what the admin's app copies, and what the
/// joiner's app opens and shows before joining. Grammar (ours; Marmot defines no link format):
///
///     link    = "marmot:join/" npub "/" token [ "?" param *( "&" param ) ]
///     npub    = the link admin's key, NIP-19 ("npub1" …)
///     token   = 32 lowercase hex digits (GroupLinkState.token)
///     param   = "name=" pct-text       ; the group's name when the link was made
///             / "members=" 1*6DIGIT    ; how many members it had then
///             / "expires=" 1*20DIGIT   ; unix seconds after which the link is refused
///     pct-text = *( unreserved / "%" HEXDIG HEXDIG )   ; UTF-8, RFC 3986 percent-encoding
///
/// Each parameter at most once; unknown parameters are refused (a link we cannot fully read is
/// not shown as if we could). The name and member count are what the link states: the joiner
/// shows them as such, they are not proof of anything (only the admin's answer is).
package struct GroupLinkText: Hashable, Sendable {
    package static let prefix = "marmot:join/"
    /// Longest link text read: the bound on work for untrusted input (a name of 400 characters
    /// percent-encoded three ways fits).
    package static let maximumLength = 1_500

    package var admin: PublicKey
    package var token: String
    package var name: String?
    package var memberCount: Int?
    package var expiresAt: UInt64?

    package init(admin: PublicKey, token: String, name: String?, memberCount: Int?, expiresAt: UInt64? = nil) {
        self.admin = admin
        self.token = token
        self.name = name
        self.memberCount = memberCount
        self.expiresAt = expiresAt
    }

    package var text: String {
        var params: [String] = []
        if let name { params.append("name=" + Self.percentEncoded(name)) }
        if let memberCount { params.append("members=\(memberCount)") }
        if let expiresAt { params.append("expires=\(expiresAt)") }
        return Self.prefix + admin.npub + "/" + token + (params.isEmpty ? "" : "?" + params.joined(separator: "&"))
    }

    /// Parses untrusted text; every failure is `core.invalidLink` with the reason.
    package init(parsing text: String) throws(CoreError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw CoreError(.invalidLink, "a link of \(text.utf8.count) bytes (at most \(Self.maximumLength))")
        }
        guard text.hasPrefix(Self.prefix) else { throw CoreError(.invalidLink, "a group link starts with '\(Self.prefix)'") }
        let rest = text.dropFirst(Self.prefix.count)
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0].split(separator: "/", omittingEmptySubsequences: false)
        guard path.count == 2 else { throw CoreError(.invalidLink, "a group link names an admin and a token") }
        do {
            admin = try PublicKey(npub: String(path[0]))
        } catch {
            throw CoreError(.invalidLink, "the link's admin is not an npub: \(error.reason)")
        }
        token = String(path[1])
        guard token.utf8.count == 32, token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw CoreError(.invalidLink, "the link's token is not 32 lowercase hex digits")
        }
        guard parts.count == 2 else { return }
        var seen: Set<String> = []
        for param in parts[1].split(separator: "&", omittingEmptySubsequences: false) {
            let pair = param.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, seen.insert(String(pair[0])).inserted else {
                throw CoreError(.invalidLink, "link parameter '\(param.prefix(20))' is not name=value, or repeats")
            }
            let value = String(pair[1])
            switch pair[0] {
            case "name": name = try Self.percentDecoded(value)
            case "members":
                guard value.utf8.count <= 6, let count = Int(value), count >= 1 else {
                    throw CoreError(.invalidLink, "the link's member count is not a number from 1 to 999999")
                }
                memberCount = count
            case "expires":
                guard value.utf8.count <= 20, let seconds = UInt64(value) else {
                    throw CoreError(.invalidLink, "the link's expiry is not unix seconds")
                }
                expiresAt = seconds
            default: throw CoreError(.invalidLink, "unknown link parameter '\(pair[0].prefix(20))'")
            }
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    static func percentEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    static func percentDecoded(_ text: String) throws(CoreError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if isUnreserved(byte) {
                bytes.append(byte)
                continue
            }
            guard byte == 0x25, let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw CoreError(.invalidLink, "the link's name is not percent-encoded text")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw CoreError(.invalidLink, "the link's name is not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
