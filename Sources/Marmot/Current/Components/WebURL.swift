// A bounded, allocation-light reading of the absolute URLs Marmot's current profile stores as
// signed bytes: relay URLs (transports/nostr.md, "Relay URL profile"), avatar URLs
// (group-avatar-url-v1.md) and blob endpoints (group-encrypted-media-v2.md). The texts define
// normalization by the WHATWG URL Standard; we implement the part of it these fields can hit
// (lower-case scheme and host, no default port, no dot segments, a non-empty path for http(s))
// and say so in docs/current-profile.md. Bytes are never rewritten: a URL that is not already in
// the form we check is refused, never repaired.

/// The parts of `scheme://authority/path?query#fragment`, split without decoding.
struct WebURL {
    let scheme: Substring
    /// userinfo@host:port as written.
    let authority: Substring
    let path: Substring
    let query: Substring?
    let fragment: Substring?

    /// Splits `text`; nil when it is not absolute with a `//` authority, or holds whitespace or
    /// control characters.
    init?(_ text: String) {
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f }),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        let scheme = text[..<colon]
        let afterScheme = text[text.index(after: colon)...]
        guard !scheme.isEmpty, afterScheme.hasPrefix("//") else { return nil }
        var rest = afterScheme.dropFirst(2)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        self.scheme = scheme
        authority = rest[..<slash]
        path = rest[slash...]
        self.query = query
        self.fragment = fragment
    }

    var hasUserinfo: Bool { authority.contains("@") }

    /// The host without a port (IPv6 literals keep their brackets).
    var host: Substring {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return authority[...close] }
        if let colon = authority.lastIndex(of: ":") { return authority[..<colon] }
        return authority
    }

    /// The port as written, if any.
    var port: Substring? {
        let afterHost = authority[host.endIndex...]
        return afterHost.hasPrefix(":") ? afterHost.dropFirst() : nil
    }

    /// Why the URL is not in the normalized form we check, or nil when it is: lower-case scheme and
    /// host, a port that is digits and not the scheme's default, a path that starts with `/` and
    /// has no `.`/`..` segment.
    func normalizationProblem(defaultPorts: [Substring: Substring]) -> String? {
        if scheme != scheme.lowercased() { return "the scheme is not lower case" }
        if host != host.lowercased() { return "the host is not lower case" }
        if let port {
            if port.isEmpty || !port.allSatisfy(\.isASCII) || !port.allSatisfy(\.isNumber) { return "the port is not a number" }
            if defaultPorts[scheme] == port { return "the default port \(port) is written out" }
        }
        if path.isEmpty { return "the path is empty (a normalized URL has at least /)" }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
            return "the path has a dot segment"
        }
        return nil
    }

    /// Whether the host names this machine, a private network or a non-routable address
    /// (group-avatar-url-v1.md's list): `localhost`, `*.localhost`, IPv4 loopback, private,
    /// link-local, unspecified, broadcast, documentation, multicast; any IPv6 literal other than a
    /// global unicast one.
    var hostIsLocalOrPrivate: Bool {
        let name = host.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name.hasPrefix("[") {
            // Global unicast IPv6 is 2000::/3; everything else (::1, fe80::, fc00::, ff00::, ::) is not routable here.
            let first = name.dropFirst().prefix { $0 != ":" && $0 != "]" }
            guard let value = UInt16(first, radix: 16), !first.isEmpty else { return true }
            return value & 0xe000 != 0x2000 || value == 0x2001 && name.hasPrefix("[2001:db8")
        }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        guard octets.count == 4, octets.allSatisfy({ $0 != nil }) else { return false }
        let a = octets.map { $0! }
        switch (a[0], a[1], a[2]) {
        case (0, _, _), (10, _, _), (127, _, _), (224...255, _, _): return true
        case (169, 254, _), (192, 168, _), (172, 16...31, _), (100, 64...127, _): return true
        case (192, 0, 2), (198, 51, 100), (203, 0, 113), (192, 0, 0), (198, 18...19, _): return true
        default: return false
        }
    }
}

extension RelayURL {
    /// The Nostr relay URL profile of the current profile (transports/nostr.md): UTF-8, at most 512
    /// bytes, absolute, scheme `wss` or `ws`, a host, no userinfo, no fragment.
    /// - Returns: why `bytes` is not a relay URL, or nil when it is.
    package static func profileProblem(_ bytes: [UInt8]) -> String? {
        guard bytes.count <= 512 else { return "\(bytes.count) bytes, more than 512" }
        guard let text = String(validating: bytes, as: UTF8.self) else { return "not UTF-8" }
        guard let url = WebURL(text) else { return "\(text) is not an absolute URL" }
        guard url.scheme == "wss" || url.scheme == "ws" else { return "\(text): the scheme is not wss or ws" }
        guard !url.host.isEmpty else { return "\(text) has no host" }
        guard !url.hasUserinfo else { return "\(text) has userinfo" }
        guard url.fragment == nil else { return "\(text) has a fragment" }
        return nil
    }
}
