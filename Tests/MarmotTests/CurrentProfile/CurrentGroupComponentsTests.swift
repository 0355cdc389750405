import HexEncoding
import MLS
import Marmot
import Nostr
import TLSCodec
import Testing

/// GroupContext components of the current profile, on MDK v0.11.0's captured bytes: both adopted
/// groups decode into typed components and re-encode byte for byte; every AppDataUpdate payload of
/// the forgery group decodes or fails as its case names; the OpenMLS negative Welcomes fail the
/// group rules they name.
@Suite struct CurrentGroupComponentsTests {
    static func extensions(_ group: String) throws -> (bytes: [UInt8], list: [Extension]) {
        let bytes = try MDKVectors.bytes(try MDK011.groups(), "\(group)/group_context_extensions")
        var reader = TLSReader(bytes)
        let list = try reader.readExtensions()
        try reader.finish()
        return (bytes, list)
    }

    @Test(arguments: MDK011.adoptedGroups)
    func adoptedGroupContextDecodesAndReencodes(group: String) throws {
        let root = try MDK011.groups()
        let (bytes, list) = try Self.extensions(group)
        let components = try GroupComponents(extensions: list)
        let original = try #require(list.data(ofType: CurrentProfileCodePoints.appDataDictionary))
        #expect(components.dictionary.encoded() == original)
        var rebuilt = list
        let index = try #require(rebuilt.firstIndex { $0.type == CurrentProfileCodePoints.appDataDictionary })
        rebuilt[index] = components.dictionary.mlsExtension
        var writer = TLSWriter()
        writer.writeVector(rebuilt)
        #expect(writer.bytes == bytes)
        // Typed values equal what the capture records.
        let creator = try MDKVectors.bytes(root, "\(group)/creator_account_public")
        let nostrGroupID = try MDKVectors.string(root, "\(group)/nostr_group_id")
        let relays = try #require(try MDKVectors.value(root, "\(group)/relays") as? [String])
        #expect(components.admins?.admins == [creator])
        #expect(components.routing?.hTag == nostrGroupID)
        #expect(components.routing?.relays == relays)
        #expect(components.lifecycle == .active)
        #expect(components.required.ids.contains(.accountIdentityProof))
        #expect(components.profile?.name.hasPrefix("W24-E") == true)
        let typed = components.components.filter { if case .unknown = $0 { false } else { true } }
        #expect(typed.count == components.components.count)
        print(
            "MDK 0.11 group context \(group): \(components.components.count) components \(components.components.map(\.id.hexTag)) decoded and re-encoded byte for byte"
        )
    }

    @Test func whiteNoiseCarriesAgentStreamAndMediaPolicy() throws {
        let components = try GroupComponents(extensions: try Self.extensions("white_noise_app").list)
        let stream = try #require(components.agentStream)
        #expect(stream.requiredRoles == .receive)
        #expect(stream.allowedRoles == [.receive, .send])
        #expect(stream.maximumPlaintextFrameLength == 4096)
        let media = try #require(components.components.compactMap { if case .mediaPolicy(let m) = $0 { m } else { nil } }.first)
        #expect(media.allowedLocatorKinds == ["blossom-v1"])
        #expect(media.endpoints == [.init(locatorKind: "blossom-v1", baseURL: "https://blossom.example.com/")])
    }

    /// Dictionary and group-rule twins: each broken input fails with its code.
    @Test func dictionaryAndProfileNegatives() throws {
        let list = try Self.extensions("engine_default").list
        let dictionary = try #require(try AppDataDictionary.marmot(in: list))
        // Out of order and repeated entries.
        var writer = TLSWriter()
        writer.writeVector { inner in
            for id: UInt16 in [0x8003, 0x8001] {
                inner.write(id)
                inner.writeOpaque([UInt8]())
            }
        }
        #expect(throws: MarmotError(.dictionaryInvalid, "")) { try AppDataDictionary(marmotBytes: writer.bytes) }
        #expect(throws: MarmotError(.dictionaryInvalid, "")) {
            try AppDataDictionary(marmotEntries: [
                ComponentData(componentID: 0x8001, data: []), ComponentData(componentID: 0x8001, data: []),
            ])
        }
        #expect(throws: MarmotError(.dictionaryInvalid, "")) { try AppDataDictionary(marmotBytes: dictionary.encoded() + [0]) }
        // A mixed group (legacy 0xF2EE beside the dictionary).
        #expect(throws: MarmotError(.profileMismatch, "")) {
            try GroupComponents(extensions: list + [Extension(type: 0xF2EE, data: [])])
        }
        // A legacy group (0xF2EE and no dictionary).
        #expect(throws: MarmotError(.profileMismatch, "")) {
            try GroupComponents(
                extensions: list.filter { $0.type != CurrentProfileCodePoints.appDataDictionary } + [Extension(type: 0xF2EE, data: [])])
        }
        // A required component without its entry.
        let withoutLifecycle = dictionary.removing(.groupLifecycle)
        #expect(throws: MarmotError(.componentMissing, "")) {
            try GroupComponents(
                extensions: list.map { $0.type == CurrentProfileCodePoints.appDataDictionary ? withoutLifecycle.mlsExtension : $0 })
        }
        // An identity proof at the GroupContext.
        #expect(throws: MarmotError(.componentMisplaced, "")) { try GroupComponent(id: .accountIdentityProof, data: []) }
        // app_components repeating an id.
        #expect(throws: MarmotError(.componentListInvalid, "")) {
            try AppComponents(marmotBytes: AppComponents([.groupProfile, .groupProfile]).encoded())
        }
    }

    /// What each forgery case's AppDataUpdate payload is, decoded as full replacement state:
    /// nil when it must decode, else the code it must fail with.
    static let payloadVerdicts: [String: MarmotError.Code?] = [
        "ok_rename": nil, "nonadmin_rename": nil, "lifecycle_unrequire_rename": nil, "ok_agent_stream": nil,
        "ok_avatar": nil, "ok_image": nil, "ok_media_v2": nil, "ok_retention": nil, "ok_remove_admin_coupled": nil,
        "admin_not_member": nil, "disband": nil, "lifecycle_redundant": nil, "agent_stream_send_required": nil,
        "malformed_image": .componentInvalid, "avatar_not_url": .componentInvalid, "retention_7_bytes": .componentInvalid,
        "malformed_media_v2": .componentInvalid, "malformed_profile": .componentInvalid, "malformed_routing": .componentInvalid,
        "empty_admins": .componentInvalid, "remove_observer_malformed": .componentInvalid,
        "proof_in_group_context": .componentMisplaced,
    ]

    @Test func forgeryAppDataUpdatePayloads() throws {
        let commits = try #require(try MDKVectors.value(try MDK011.commits(), "openmls_forgeries/commits") as? [String: Any])
        var decoded = 0
        var refused = 0
        var removals = 0
        var walked = 0
        var requiredLists = 0
        var unknown = 0
        for name in commits.keys.sorted() {
            let bytes = try MDKVectors.bytes(commits, "\(name)/message")
            let proposals = try ProposalWalker.proposals(bytes).proposals
            walked += 1
            for case .appDataUpdate(let update) in proposals {
                switch update.operation {
                case .remove: removals += 1
                case .update(let data) where update.component == .appComponents:
                    // The required-component list: well-formed in every case (what it requires is judged elsewhere).
                    #expect(try GroupComponent(id: update.component, data: data).encoded() == data, "\(name)")
                    requiredLists += 1
                case .update(let data) where update.component.name == "unregistered":
                    // Unknown components (ok_unknown_component, ok_twenty_updates) are carried as bytes.
                    #expect(
                        try GroupComponent(id: update.component, data: data)
                            == .unknown(ComponentData(componentID: update.componentID, data: data)))
                    unknown += 1
                case .update(let data):
                    guard let expected = Self.payloadVerdicts[name] else {
                        Issue.record("\(name): an AppDataUpdate of \(update.component) with no verdict in the table")
                        continue
                    }
                    do {
                        let component = try GroupComponent(id: update.component, data: data)
                        #expect(expected == nil, "\(name) decoded but should fail with \(String(describing: expected))")
                        #expect(component.encoded() == data, "\(name) does not re-encode byte for byte")
                        decoded += 1
                    } catch {
                        #expect(error.code == expected, "\(name): \(error)")
                        refused += 1
                    }
                }
            }
        }
        #expect(walked == 39)
        #expect(decoded + refused == Self.payloadVerdicts.count)
        #expect(unknown == 21)
        // The by-reference proposals and commits, and the lifecycle-less group's: every payload is well-formed.
        let root = try MDK011.commits()
        var others = 0
        for path in ["openmls_forgeries/by_ref", "openmls_forgeries/lifecycle_less/commits", "openmls_forgeries/lifecycle_less/by_ref"] {
            let messages = try #require(try MDKVectors.value(root, path) as? [String: Any])
            for name in messages.keys.sorted() {
                let bytes: [UInt8]
                if let direct = try? MDKVectors.bytes(messages, name) {
                    bytes = direct
                } else {
                    bytes = try MDKVectors.bytes(messages, "\(name)/message")
                }
                for case .appDataUpdate(let update) in try ProposalWalker.proposals(bytes).proposals {
                    if case .update(let data) = update.operation {
                        #expect(try GroupComponent(id: update.component, data: data).encoded() == data, "\(path)/\(name)")
                    }
                    others += 1
                }
                walked += 1
            }
        }
        print(
            "MDK 0.11 forgery payloads: \(walked) messages walked, \(decoded) payloads decoded, \(refused) refused, \(requiredLists) required lists, \(unknown) unknown kept as bytes, \(removals) removals, \(others) by-reference/lifecycle-less updates"
        )
    }

    /// Removing the admin policy or the lifecycle is refused by the update rule; removing a
    /// required routing leaves a state the profile rules refuse.
    @Test func forgeryRemovals() throws {
        let base = try GroupComponents(extensions: try Self.extensions("engine_default").list)
        let commits = try MDK011.commits()
        for (name, code) in [("remove_admin_policy", MarmotError.Code.componentMissing), ("remove_lifecycle", .componentMissing)] {
            let proposals = try ProposalWalker.proposals(try MDKVectors.bytes(commits, "openmls_forgeries/commits/\(name)/message"))
                .proposals
            for case .appDataUpdate(let update) in proposals {
                #expect(throws: MarmotError(code, ""), "\(name)") { try base.applying(update) }
            }
        }
        let routing = try ProposalWalker.proposals(try MDKVectors.bytes(commits, "openmls_forgeries/commits/drop_required_routing/message"))
            .proposals
        for case .appDataUpdate(let update) in routing {
            let after = try base.applying(update)
            #expect(after.routing == nil)
            #expect(throws: MarmotError(.componentMissing, "")) {
                try after.requireCurrentProfile(extensions: try Self.extensions("engine_default").list)
            }
        }
    }

    /// The OpenMLS Welcomes opened as the recorded joiner, judged by the join-time group check.
    @Test func openMLSNegativeWelcomeVerdicts() throws {
        let groups = try MDK011.groups()
        let keyPackage = try MDK011.keyPackage(groups, "openmls_negatives/joiner_key_package")
        let expected: [String: MarmotError.Code?] = [
            "Control": nil, "BadProof": .proofBadSignature, "MissingProof": .proofMissing,
            "MissingRequiredCapability": .requiredCapabilityMissing, "MixedGroup": .profileMismatch, "NonAdminInviter": .inviterNotAdmin,
        ]
        for (name, verdict) in expected.sorted(by: { $0.key < $1.key }) {
            let info = try MDK011.openWelcome(
                groups, welcome: "openmls_negatives/welcomes/\(name)", keyPackage: keyPackage,
                privatePath: "openmls_negatives/joiner_private")
            var code: MarmotError.Code?
            var reason = ""
            let tree = try MDK011.tree(of: info)
            do {
                let check = try CurrentGroupCheck(groupContextExtensions: info.groupContext.extensions, tree: tree, suite: 1)
                try check.requireInviterIsAdmin(signerLeaf: info.signer)
            } catch {
                code = error.code
                reason = error.reason
            }
            #expect(code == verdict, "\(name): got \(code?.name ?? "accepted") \(reason)")
        }
        print("MDK 0.11 openmls_negatives: \(expected.count) Welcomes judged, \(expected.values.filter { $0 != nil }.count) refused")
    }

    /// The captured forgery and lifecycle-less groups' Welcomes pass the join check as their observer.
    @Test func forgeryGroupsWelcomesPass() throws {
        let commits = try MDK011.commits()
        for path in ["openmls_forgeries", "openmls_forgeries/lifecycle_less"] {
            let keyPackage = try MDK011.keyPackage(commits, "\(path)/observer_key_package")
            let info = try MDK011.openWelcome(
                commits, welcome: "\(path)/welcome", keyPackage: keyPackage, privatePath: "\(path)/observer_private")
            let check = try CurrentGroupCheck(
                groupContextExtensions: info.groupContext.extensions, tree: try MDK011.tree(of: info), suite: 1)
            try check.requireInviterIsAdmin(signerLeaf: info.signer)
            print(
                "MDK 0.11 \(path): \(check.leaves.count) leaves' proofs verified, components \(check.components.components.map(\.id.hexTag))"
            )
        }
    }
}

/// Twins of the join-time group check on the captured forgery group: each edit of its GroupContext
/// breaks one resulting-state rule.
@Suite struct CurrentGroupCheckTwins {
    static func state() throws -> (info: GroupInfo, tree: RatchetTree) {
        let commits = try MDK011.commits()
        let keyPackage = try MDK011.keyPackage(commits, "openmls_forgeries/observer_key_package")
        let info = try MDK011.openWelcome(
            commits, welcome: "openmls_forgeries/welcome", keyPackage: keyPackage, privatePath: "openmls_forgeries/observer_private")
        return (info, try MDK011.tree(of: info))
    }

    /// The forgery group's GroupContext extensions with its dictionary edited by `edit`.
    static func edited(_ info: GroupInfo, _ edit: (inout AppDataDictionary) -> Void) throws -> [Extension] {
        var dictionary = try #require(try AppDataDictionary.marmot(in: info.groupContext.extensions))
        edit(&dictionary)
        return info.groupContext.extensions.map { $0.type == ExtensionType.appDataDictionary ? dictionary.mlsExtension : $0 }
    }

    static func code(_ extensions: [Extension], _ tree: RatchetTree) -> MarmotError.Code? {
        do { _ = try CurrentGroupCheck(groupContextExtensions: extensions, tree: tree, suite: 1) } catch { return error.code }
        return nil
    }

    @Test func eachResultingStateRuleBites() throws {
        let (info, tree) = try Self.state()
        #expect(Self.code(info.groupContext.extensions, tree) == nil)
        let original = try #require(try AppDataDictionary.marmot(in: info.groupContext.extensions))
        let required = try #require(try AppComponents.marmot(in: original))
        // Requiring the Blossom image (with an empty image entry): no leaf supports 0x8002.
        let image = try Self.edited(info) { dictionary in
            dictionary.set(AppComponentID.groupBlossomImage.rawValue, to: GroupBlossomImage(image: nil).encoded())
            dictionary.set(AppComponentID.appComponents.rawValue, to: AppComponents(required.ids + [.groupBlossomImage]).encoded())
        }
        #expect(Self.code(image, tree) == .memberLacksComponent)
        // The same requirement without the entry.
        let noEntry = try Self.edited(info) { dictionary in
            dictionary.set(AppComponentID.appComponents.rawValue, to: AppComponents(required.ids + [.groupBlossomImage]).encoded())
        }
        #expect(Self.code(noEntry, tree) == .componentMissing)
        // An agent-stream policy requiring the send role (0xf2d2), which no leaf advertises.
        let send = try Self.edited(info) { dictionary in
            dictionary.set(AppComponentID.agentTextStream.rawValue, to: [0x03, 0x03, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(Self.code(send, tree) == .memberLacksComponent)
        let receive = try Self.edited(info) { dictionary in
            dictionary.set(AppComponentID.agentTextStream.rawValue, to: [0x01, 0x03, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(Self.code(receive, tree) == nil)
        // An admin with no leaf.
        let stranger = try Self.edited(info) { dictionary in
            dictionary.set(AppComponentID.adminPolicy.rawValue, to: [0x20] + [UInt8](repeating: 0x77, count: 32))
        }
        #expect(Self.code(stranger, tree) == .adminNotMember)
        // The identity proof not required.
        let unrequired = try Self.edited(info) { dictionary in
            dictionary.set(
                AppComponentID.appComponents.rawValue, to: AppComponents(required.ids.filter { $0 != .accountIdentityProof }).encoded())
        }
        #expect(Self.code(unrequired, tree) == .componentMissing)
    }
}

/// The URL rules the components and events share: the relay URL profile, avatar and blob-store URLs.
@Suite struct CurrentURLRuleTests {
    @Test func relayURLProfile() {
        for good in ["wss://relay.example.com", "ws://relay.example.com:7777/path", "wss://[2001:db8::1]/"] {
            #expect(RelayURL.profileProblem(Array(good.utf8)) == nil, "\(good)")
        }
        for bad in [
            "https://relay.example.com", "wss://", "wss://user@relay.example.com", "wss://relay.example.com/#top", "relay.example.com",
            "wss://relay example.com", "WSS://relay.example.com", "wss://" + String(repeating: "a", count: 510),
        ] {
            #expect(RelayURL.profileProblem(Array(bad.utf8)) != nil, "\(bad)")
        }
        #expect(RelayURL.profileProblem([0xff, 0xfe]) != nil)
    }

    static func avatar(_ url: String) -> MarmotError.Code? {
        do { _ = try GroupAvatarURL(bytes: GroupAvatarURL(url: url).encoded()) } catch { return error.code }
        return nil
    }

    @Test func avatarURLIsANormalizedPublicHTTPSURL() {
        #expect(Self.avatar("https://example.com/avatar.png") == nil)
        #expect(Self.avatar("") == nil)
        for bad in [
            "http://example.com/a.png", "https://EXAMPLE.com/a.png", "https://example.com:443/a.png", "https://example.com",
            "https://example.com/a/../b.png", "https://user@example.com/a.png", "https://example.com/a.png#x", "https://localhost/a.png",
            "https://a.localhost/a.png", "https://127.0.0.1/a.png", "https://10.1.2.3/a.png", "https://192.168.0.1/a.png",
            "https://169.254.1.1/a.png", "https://[::1]/a.png", "https://[fe80::1]/a.png", "not a url",
        ] {
            #expect(Self.avatar(bad) == .componentInvalid, "\(bad)")
        }
        #expect(Self.avatar("https://93.184.216.34/a.png") == nil)
        // Hints without a url.
        #expect(throws: MarmotError(.componentInvalid, "")) {
            try GroupAvatarURL(bytes: GroupAvatarURL(url: "", dimensions: [1]).encoded())
        }
    }

    @Test func mediaPolicyRules() throws {
        let endpoint = EncryptedMediaPolicy.Endpoint(locatorKind: "blossom-v1", baseURL: "https://blossom.example.com/")
        let policy = try EncryptedMediaPolicy(allowedLocatorKinds: ["blossom-v1"], endpoints: [endpoint])
        #expect(try EncryptedMediaPolicy(bytes: policy.encoded()) == policy)
        #expect(throws: MarmotError(.componentInvalid, "")) {
            try EncryptedMediaPolicy(allowedLocatorKinds: ["Blossom"], endpoints: [endpoint])
        }
        #expect(throws: MarmotError(.componentInvalid, "")) {
            try EncryptedMediaPolicy(allowedLocatorKinds: ["other"], endpoints: [endpoint])
        }
        #expect(throws: MarmotError(.componentInvalid, "")) {
            try EncryptedMediaPolicy(allowedLocatorKinds: ["blossom-v1"], endpoints: [endpoint, endpoint])
        }
        #expect(throws: MarmotError(.componentInvalid, "")) {
            try EncryptedMediaPolicy(
                allowedLocatorKinds: ["blossom-v1"],
                endpoints: [.init(locatorKind: "blossom-v1", baseURL: "https://blossom.example.com/?q=1")])
        }
    }
}
