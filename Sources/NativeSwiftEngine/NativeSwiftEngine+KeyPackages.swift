import EngineInterface
import HexEncoding
import MLS
import Marmot
import Nostr

extension NativeSwiftEngine {
    package func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool) async throws(EngineError)
        -> KeyPackageDraft
    {
        try await createKeyPackage(for: publicKey, relays: relays, protected: protected, lastResort: true)
    }

    /// A key package draft; `lastResort: false` makes a one-time key package (no last_resort
    /// extension), which the first Welcome that uses it retires (issue 30, N3). Our apps publish
    /// last-resort ones (MIP-00); the one-time kind is the legacy profile's, for what a client of
    /// another policy would publish.
    package func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool, lastResort: Bool) async throws(EngineError)
        -> KeyPackageDraft
    {
        try persisting { () throws(EngineError) in
            guard !relays.isEmpty, relays.allSatisfy(RelayURL.isValid) else {
                throw EngineError(.invalidInput, "a key package needs at least one ws(s):// relay")
            }
            if profile == .current { return try currentKeyPackageDraft(for: publicKey) }
            let own = try newKeyPackage(for: publicKey, lastResort: lastResort)
            let reference = try mlsStep { () throws(MLSError) in try own.keyPackage.reference(suite: MarmotCapabilities.suite) }
            let bytes = try marmotStep { () throws(MarmotError) in try tlsEncoded(own.keyPackage) }
            keyPackages[reference] = own
            let dTag = random.bytes(32).hexString
            let tags = KeyPackageEvent.tags(
                keyPackageRef: reference, dTag: dTag, relays: relays, protected: protected, client: Self.clientTag)
            return KeyPackageDraft(
                content: Base64Content.encode(bytes), tags: tags.tags, legacyTags: tags.legacyTags, dTag: dTag,
                keyPackageRef: reference.hexString)
        }
    }

    package func validateKeyPackage(_ event: Event) async throws(EngineError) {
        switch profile {
        case .legacy: _ = try validated(event)
        case .current: _ = try currentValidated(event)
        }
    }

    func validated(_ event: Event) throws(EngineError) -> KeyPackageEvent.Validated {
        let now = clock()
        // A current-profile key package (its app_components tag) offered to a legacy member.
        if event.kind == .keyPackage, event.tags.contains(where: { $0.first == "app_components" }) {
            throw .profileMismatch(ours: .legacy, "the key package", "it advertises app_components (kind 30443 of the adopted spec)")
        }
        return try marmotStep { () throws(MarmotError) in try KeyPackageEvent.validate(event, now: now) }
    }

    /// A KeyPackage for `identity` (last-resort unless told otherwise) with a fresh signature key,
    /// valid around the clock's now.
    func newKeyPackage(for identity: PublicKey, lastResort: Bool = true) throws(EngineError) -> KeyPackagePrivate {
        let suite = MarmotCapabilities.suite
        let now = clock()
        let lifetime = Lifetime(
            notBefore: now > Self.keyPackageBackdate ? now - Self.keyPackageBackdate : 0,
            notAfter: now.addingReportingOverflow(Self.keyPackageLifetime).overflow ? .max : now + Self.keyPackageLifetime)
        return try mlsStep { () throws(MLSError) in
            try KeyPackagePrivate.generate(
                suite: suite, credential: .basic(identity: identity.bytes),
                signatureKeyPair: try suite.generateSignatureKeyPair(using: &random), capabilities: MarmotCapabilities.leaf,
                lifetime: lifetime, extensions: lastResort ? [Extension(type: ExtensionType.lastResort, data: [])] : [], using: &random)
        }
    }
}
