import ConformanceTestSupport
import Foundation
import HexEncoding
import MLS
import Marmot
import Nostr
import Testing

/// The Nostr events of the current profile on MDK v0.11.0's captures: kind-30443 key packages,
/// kind-444 Welcome rumors and kind-445 group events, each with the twins that prove the checks bite.
@Suite struct CurrentEventTests {
    /// (path of the event JSON, path of the recorded KeyPackageRef, time inside the lifetime, file).
    static func keyPackageEvents() throws -> [(name: String, event: Event, ref: String, now: UInt64)] {
        let groups = try MDK011.groups()
        let commits = try MDK011.commits()
        let forks = try MDK011.forks()
        var out: [(String, Event, String, UInt64)] = []
        for group in MDK011.adoptedGroups {
            let rumor = try UnsignedEvent(rumorJSON: try MDKVectors.string(groups, "\(group)/welcome_rumor_json"))
            out.append(
                (
                    group, try Event(json: try MDKVectors.string(groups, "\(group)/joiner_key_package_event_json")),
                    try MDKVectors.string(groups, "\(group)/joiner_key_package_ref"), rumor.createdAt
                ))
        }
        for (root, path) in [(commits, "mdk_engine"), (forks, "forks")] {
            let rumor = try UnsignedEvent(rumorJSON: try MDKVectors.string(root, "\(path)/welcome_rumor_json"))
            out.append(
                (
                    "\(path) observer", try Event(json: try MDKVectors.string(root, "\(path)/observer_key_package_event_json")),
                    try MDKVectors.string(root, "\(path)/observer_key_package_ref"), rumor.createdAt
                ))
        }
        return out
    }

    @Test func capturedKeyPackageEventsValidate() throws {
        let groups = try MDK011.groups()
        let events = try Self.keyPackageEvents()
        for (name, event, ref, now) in events {
            let validated = try CurrentKeyPackageEvent.validate(event, now: now)
            #expect(validated.reference.hexString == ref, "\(name)")
            #expect(validated.advertised.contains(.accountIdentityProof))
            #expect(validated.lastResort, "\(name): MDK publishes last-resort key packages")
            // The tags we build for the decoded key package are MDK's, value for value and in order.
            let slot = try [UInt8](hex: try #require(event.firstTagValue("d")))
            #expect(
                try CurrentKeyPackageEvent.tags(keyPackage: validated.keyPackage, reference: validated.reference, slot: slot) == event.tags,
                "\(name)")
            if let recorded = try? MDKVectors.value(groups, "\(name)/joiner_key_package_app_components") as? [Int] {
                #expect(validated.leaf.supported.ids.map { Int($0.rawValue) } == recorded, "\(name)")
            }
        }
        #expect(events.count == 4)
        print("MDK 0.11 key-package events: \(events.count) kind-30443 events validated (tags, ref, proof, lifetime)")
    }

    /// Re-signs `tags` and `content` under a fresh key: the tag checks run before the author check,
    /// so each twin fails for its own tag reason.
    static func resigned(_ event: Event, tags: [[String]], content: String? = nil, kind: Kind = .keyPackage) throws -> Event {
        var generator = TestGenerator(seed: 11)
        let key = Keypair.generate(using: &generator)
        return try UnsignedEvent(
            pubkey: key.publicKey, createdAt: event.createdAt, kind: kind, tags: tags, content: content ?? event.content
        )
        .signed(with: key, using: &generator)
    }

    @Test func keyPackageEventTwins() throws {
        let (_, event, _, now) = try #require(try Self.keyPackageEvents().first)
        let tags = event.tags
        func code(_ candidate: Event) -> MarmotError.Code? {
            do { _ = try CurrentKeyPackageEvent.validate(candidate, now: now) } catch { return error.code }
            return nil
        }
        // The original under another author: every tag passes, the credential check catches it.
        #expect(code(try Self.resigned(event, tags: tags)) == .keyPackageIdentityMismatch)
        let replace: (String, [String]) -> [[String]] = { name, tag in tags.map { $0.first == name ? tag : $0 } }
        #expect(code(try Self.resigned(event, tags: tags + [tags[0]])) == .keyPackageInvalidTag)  // d twice
        #expect(code(try Self.resigned(event, tags: tags + [["mls_proposals", "0x000a"]])) == .keyPackageInvalidTag)
        #expect(
            code(try Self.resigned(event, tags: replace("mls_protocol_version", ["mls_protocol_version", "1.0", "x"])))
                == .keyPackageInvalidTag)
        #expect(code(try Self.resigned(event, tags: replace("mls_ciphersuite", ["mls_ciphersuite", "0x1"]))) == .keyPackageInvalidTag)
        #expect(
            code(try Self.resigned(event, tags: replace("mls_ciphersuite", ["mls_ciphersuite", "0x0001", "0x0001"])))
                == .keyPackageInvalidTag)
        #expect(code(try Self.resigned(event, tags: replace("app_components", ["app_components", "0x8001"]))) == .keyPackageInvalidTag)
        #expect(code(try Self.resigned(event, tags: replace("d", ["d", String(repeating: "A", count: 64)]))) == .keyPackageInvalidTag)
        #expect(code(try Self.resigned(event, tags: replace("i", ["i", String(repeating: "0", count: 64)]))) == .keyPackageRefMismatch)
        #expect(code(try Self.resigned(event, tags: tags.filter { $0.first != "app_components" })) == .profileMismatch)
        #expect(code(try Self.resigned(event, tags: tags, kind: .keyPackageLegacy)) == .profileMismatch)
        // A bad signature is refused first.
        let forged = try Event(jsonValue: event.jsonValue)
        var json = forged.json()
        json = json.replacingOccurrences(of: "\"created_at\":\(event.createdAt)", with: "\"created_at\":\(event.createdAt + 1)")
        let tampered = try Event.decodeUnverified(try JSONValue(parsing: json))
        #expect(code(tampered) == .keyPackageBadEvent)
        // A bare KeyPackage (legacy framing) in an otherwise current event.
        let message = try MLSMessage(tlsBytes: try Base64Content.decode(event.content))
        guard case .keyPackage(let keyPackage) = message.body else {
            Issue.record("not a key package")
            return
        }
        #expect(code(try Self.resigned(event, tags: tags, content: Base64Content.encode(try tlsEncoded(keyPackage)))) == .profileMismatch)
    }

    /// MDK 0.8.0's legacy key-package events are told apart and refused with profile_mismatch.
    @Test(arguments: ["bob", "carol", "dave", "erin_legacy_443", "erin_protected_30443"])
    func legacyKeyPackageEventIsProfileMismatch(owner: String) throws {
        let event = try MDKVectors.event(try MDKVectors.file("01_key_packages.json"), owner)
        #expect(CurrentKeyPackageEvent.dialect(of: event) == .legacy)
        #expect(throws: MarmotError(.profileMismatch, "")) { try CurrentKeyPackageEvent.validate(event, now: event.createdAt) }
    }

    /// The captured kind-444 rumors parse, name the key-package event, and carry the Welcome bytes.
    @Test func capturedWelcomeRumorsParse() throws {
        let groups = try MDK011.groups()
        let commits = try MDK011.commits()
        let forks = try MDK011.forks()
        var cases: [(UnsignedEvent, String, [UInt8]?)] = []
        for group in MDK011.adoptedGroups {
            let kp = try Event(json: try MDKVectors.string(groups, "\(group)/joiner_key_package_event_json"))
            cases.append(
                (
                    try UnsignedEvent(rumorJSON: try MDKVectors.string(groups, "\(group)/welcome_rumor_json")), kp.id.hex,
                    try MDKVectors.bytes(groups, "\(group)/welcome_mls_message")
                ))
        }
        for (root, path) in [(commits, "mdk_engine"), (forks, "forks")] {
            let kp = try Event(json: try MDKVectors.string(root, "\(path)/observer_key_package_event_json"))
            cases.append((try UnsignedEvent(rumorJSON: try MDKVectors.string(root, "\(path)/welcome_rumor_json")), kp.id.hex, nil))
        }
        for (rumor, keyPackageEvent, welcomeBytes) in cases {
            let parsed = try CurrentWelcomeRumor.parse(rumor)
            #expect(parsed.keyPackageEvent.hex == keyPackageEvent)
            #expect(!parsed.relays.isEmpty)
            if let welcomeBytes { #expect(try tlsEncoded(MLSMessage(body: .welcome(parsed.welcome))) == welcomeBytes) }
            let rebuilt = try CurrentWelcomeRumor.make(
                welcome: parsed.welcome, inviter: rumor.pubkey, createdAt: rumor.createdAt, keyPackageEvent: parsed.keyPackageEvent,
                relays: parsed.relays)
            #expect(rebuilt == rumor, "the rumor we build is MDK's, tag for tag")
        }
        // Twins.
        let rumor = cases[0].0
        func code(_ tags: [[String]]) -> MarmotError.Code? {
            var copy = rumor
            copy.tags = tags
            do { _ = try CurrentWelcomeRumor.parse(copy) } catch { return error.code }
            return nil
        }
        #expect(code(rumor.tags + [rumor.tags[0]]) == .invalidWelcome)
        #expect(code(rumor.tags.filter { $0.first != "relays" }) == .invalidWelcome)
        #expect(code(rumor.tags.map { $0.first == "relays" ? ["relays", "https://relay.example.com"] : $0 }) == .invalidWelcome)
        #expect(
            code(rumor.tags.map { $0.first == "relays" ? ["relays", "wss://a.example.com", "wss://a.example.com"] : $0 }) == .invalidWelcome
        )
        #expect(code(rumor.tags.map { $0.first == "e" ? ["e", rumor.tags[0][1].uppercased()] : $0 }) == .invalidWelcome)
        print("MDK 0.11 welcome rumors: \(cases.count) kind-444 rumors parsed and rebuilt byte for byte")
    }

    /// Every captured kind-445 event: id and signature, exact tags, content length, a fresh
    /// ephemeral key never an account's.
    @Test func capturedGroupEventsPassTheEnvelopeRules() throws {
        let commits = try MDK011.commits()
        let forks = try MDK011.forks()
        var checked = 0
        var pubkeys = Set<PublicKey>()
        for (root, path, ids) in [
            (commits, "mdk_engine", ["nostr_group_id", "rotated_nostr_group_id"]), (forks, "forks", ["nostr_group_id"]),
        ] {
            let groupIDs = try ids.map { try MDKVectors.string(root, "\(path)/\($0)") }
            let accounts = try #require(try MDKVectors.value(root, "\(path)/accounts") as? [String: String])
            let accountKeys = Set(try accounts.values.map { try PublicKey(hex: $0) })
            let steps = try #require(try MDKVectors.value(root, "\(path)/steps") as? [[String: Any]])
            for step in steps {
                let event = try Event(json: try #require(step["event_json"] as? String))
                let envelope = try CurrentGroupEvent.check(event)
                #expect(groupIDs.contains(envelope.nostrGroupID.hexString))
                try CurrentGroupEvent.requireEphemeral(event, accounts: accountKeys)
                #expect(pubkeys.insert(event.pubkey).inserted, "an ephemeral key is reused")
                checked += 1
            }
        }
        #expect(checked == 30)
        print(
            "MDK 0.11 group events: \(checked) kind-445 events pass id, signature, tag and length rules; \(pubkeys.count) distinct ephemeral keys"
        )
    }

    @Test func groupEventTwinsAndRoundTrip() throws {
        let steps = try #require(try MDKVectors.value(try MDK011.commits(), "mdk_engine/steps") as? [[String: Any]])
        let event = try Event(json: try #require(steps[0]["event_json"] as? String))
        func code(_ candidate: Event) -> MarmotError.Code? {
            do { _ = try CurrentGroupEvent.check(candidate) } catch { return error.code }
            return nil
        }
        let tags = event.tags
        #expect(code(try CurrentEventTests.resigned(event, tags: tags, kind: .groupEvent)) == nil)
        #expect(
            code(try CurrentEventTests.resigned(event, tags: tags + [["encoding", "base64"]], kind: .groupEvent)) == .groupEventInvalidTags)
        #expect(code(try CurrentEventTests.resigned(event, tags: tags + tags, kind: .groupEvent)) == .groupEventInvalidTags)
        #expect(
            code(try CurrentEventTests.resigned(event, tags: [["h", tags[0][1].uppercased()]], kind: .groupEvent)) == .groupEventInvalidTags
        )
        #expect(
            code(try CurrentEventTests.resigned(event, tags: tags + [["expiration", "01"]], kind: .groupEvent)) == .groupEventInvalidTags)
        #expect(code(try CurrentEventTests.resigned(event, tags: tags + [["expiration", "1790000200"]], kind: .groupEvent)) == nil)
        #expect(
            code(
                try CurrentEventTests.resigned(
                    event, tags: tags, content: Base64Content.encode([UInt8](repeating: 1, count: 27)), kind: .groupEvent))
                == .groupEventContentTooShort)
        #expect(code(try CurrentEventTests.resigned(event, tags: tags, kind: .chatMessage)) == .groupEventWrongKind)
        let tampered = try Event.decodeUnverified(
            try JSONValue(parsing: event.json().replacingOccurrences(of: event.content, with: String(event.content.reversed()))))
        #expect(code(tampered) == .groupEventBadEvent)

        // Seal and open: deterministic per seed, a fresh key per event, only the right key opens it.
        let key = [UInt8](repeating: 7, count: 32)
        let other = [UInt8](repeating: 8, count: 32)
        let groupID = [UInt8](repeating: 0x42, count: 32)
        var first = TestGenerator(seed: 5)
        var again = TestGenerator(seed: 5)
        let a = try CurrentGroupEvent.seal([1, 2, 3], key: key, nostrGroupID: groupID, createdAt: 10, using: &first)
        let b = try CurrentGroupEvent.seal([1, 2, 3], key: key, nostrGroupID: groupID, createdAt: 10, using: &again)
        let c = try CurrentGroupEvent.seal([1, 2, 3], key: key, nostrGroupID: groupID, createdAt: 10, expiration: 99, using: &first)
        #expect(a == b)
        #expect(a.pubkey != c.pubkey)
        #expect(a.tags == [["h", groupID.hexString]])
        #expect(c.tags == [["h", groupID.hexString], ["expiration", "99"]])
        let opened = try CurrentGroupEvent.open(a, candidateKeys: [other, key])
        #expect(opened.message == [1, 2, 3])
        #expect(opened.keyIndex == 1)
        #expect(throws: MarmotError(.undecryptable, "")) { try CurrentGroupEvent.open(a, candidateKeys: [other]) }
        #expect(throws: MarmotError(.groupEventNotEphemeral, "")) { try CurrentGroupEvent.requireEphemeral(a, accounts: [a.pubkey]) }
    }
}

/// What we build for MDK's own inputs is MDK's event, byte for byte.
@Suite struct CurrentEventBuildTests {
    /// The joiner's key package, published by us with the joiner's account key, slot and time, is
    /// MDK's kind-30443 event: same tags, content and so the same NIP-01 id.
    @Test(arguments: MDK011.adoptedGroups)
    func keyPackageEventWeBuildIsMDKs(group: String) throws {
        let root = try MDK011.groups()
        let captured = try Event(json: try MDKVectors.string(root, "\(group)/joiner_key_package_event_json"))
        let keyPackage = try MDK011.keyPackage(root, "\(group)/joiner_key_package_mls_message")
        let author = Keypair(secretKey: try SecretKey(hex: try MDKVectors.string(root, "\(group)/joiner_account_secret_test_only")))
        var generator = TestGenerator(seed: 1)
        let built = try CurrentKeyPackageEvent.make(
            keyPackage: keyPackage, slot: try [UInt8](hex: try #require(captured.firstTagValue("d"))), author: author,
            createdAt: captured.createdAt, using: &generator)
        #expect(built.tags == captured.tags)
        #expect(built.content == captured.content)
        #expect(built.id == captured.id)
        let invited = try UnsignedEvent(rumorJSON: try MDKVectors.string(root, "\(group)/welcome_rumor_json")).createdAt
        _ = try CurrentKeyPackageEvent.validate(built, now: invited)
    }
}

/// Bounded, typed failure on hostile bytes: every prefix and every single-byte change of every
/// captured component state either decodes or throws a MarmotError; nothing traps or hangs.
@Suite struct CurrentComponentRobustnessTests {
    @Test func prefixesAndFlipsOfCapturedComponentsNeverTrap() throws {
        var inputs: [(AppComponentID, [UInt8])] = []
        for group in MDK011.adoptedGroups {
            let list = try CurrentGroupComponentsTests.extensions(group).list
            for entry in try #require(try AppDataDictionary.marmot(in: list)).entries { inputs.append((entry.id, entry.data)) }
        }
        let keyPackage = try MDK011.keyPackage(try MDK011.groups(), "engine_default/joiner_key_package_mls_message")
        let proof = try #require(try AppDataDictionary.marmot(in: keyPackage.leafNode.extensions)?[component: .accountIdentityProof])
        var decoded = 0
        var refused = 0
        for (id, data) in inputs {
            var variants = (0..<data.count).map { Array(data.prefix($0)) }
            for index in data.indices {
                var flipped = data
                flipped[index] ^= 0x80
                variants.append(flipped)
            }
            for bytes in variants {
                do {
                    _ = try GroupComponent(id: id, data: bytes)
                    decoded += 1
                } catch { refused += 1 }
            }
        }
        for cut in 0..<proof.count {
            #expect(throws: MarmotError(.proofMalformed, "")) { try AuthorizationProof(bytes: Array(proof.prefix(cut))) }
        }
        #expect(refused > 0 && decoded > 0)
        print("MDK 0.11 component robustness: \(decoded + refused) mutated states, \(refused) refused with a typed error")
    }
}
