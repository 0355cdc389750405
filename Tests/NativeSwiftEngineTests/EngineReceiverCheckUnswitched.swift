/// The closing section of docs/receiver-checks.md, written by the engine-level generator: what
/// refuses input without a test switch, and why, so that "every receiver check has a switch and a
/// proof" says exactly which checks it covers.
extension EngineReceiverCheckTests {
    static let unswitched = [
        "## What has no switch, and why",
        "",
        "\"Every check\" above means every MUST-reject *rule* a receiver applies to input it could otherwise",
        "read. Two kinds of refusal have no switch:",
        "",
        "**Decoding, deliberately.** Refusing bytes that do not decode is not a rule that could be switched",
        "off: without it there is no value to apply any rule to, so a switch could only turn a typed error",
        "into a crash or a made-up value. These are:",
        "",
        "- JSON parsing of relay frames, events, rumors and driver replies; NIP-01 event shape (field types,",
        "  hex lengths); base64 decoding of kind-443/30443/444/445 content (strict, padded).",
        "- TLS presentation-language decoding of every MLS structure: vector lengths and varints, known",
        "  enum values (wire formats, proposal and credential types, node types), no trailing bytes.",
        "- Authenticated decryption: ChaCha20-Poly1305 of kind-445 content, the PrivateMessage and its",
        "  sender data (RFC 9420 §6.3), the Welcome's GroupInfo (§12.4.3.1), HPKE opens of GroupSecrets and",
        "  UpdatePath secrets (§7.6), NIP-44 v2 payloads (version byte, padding, MAC) of gift wraps.",
        "- The 0xF2EE group data's framing (lengths, UTF-8 text, 32-byte admin keys) and an application",
        "  rumor's JSON: the rows `groupData*` and `rumorUTF8` above switch the rules read from them.",
        "- Lookups that have nothing to apply when they fail: a commit naming a proposal we never saw",
        "  (`mls.unknownProposal`), a PSK we do not hold (`mls.missingPSK`), a message for a group we do",
        "  not hold (`unknown_group`), a Welcome with no secrets for our KeyPackage (`mls.notInvited`).",
        "",
        "**Rules not yet switched.** Every MLS rule has its switch and row above (sender rules, external",
        "commits, leaf sources, capabilities, the joiner's checks of the Welcome's tree). What remains is",
        "enforced in every run, refused with a typed code, but has no switch and proof row yet:",
        "",
        "- NIP-59 gift-wrap rules in the Nostr library (wrap kind 1059, seal kind 13, seal and wrap",
        "  signatures, seal author equal to the rumor's) and the welcome rumor's kind 444.",
    ]
}
