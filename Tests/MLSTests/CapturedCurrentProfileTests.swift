// MDK v0.11.0's captured current-profile bytes (vectors/mdk-0.11, see its SOURCE.md), replayed at
// the MLS level only: our MLS joins every captured Welcome with the recorded private keys and
// processes every captured epoch-1 commit, each on a fresh copy of the epoch-1 state. Marmot's
// rules (admins, required components, identity proofs) are not applied here, so a commit MDK
// refuses for a Marmot reason must still be MLS-valid; what MLS itself refuses is pinned by name
// with its error code. A missing or unreadable file fails every test that reads it.
import ConformanceTestSupport
import Foundation
import MLS
import TLSCodec
import Testing

/// The recorded private keys of a joiner or observer.
struct CapturedKeys: Decodable {
    let init_key_private: Hex
    let encryption_key_private: Hex
    let signature_key_private_seed: Hex
    let signature_key_public: Hex
}

/// One adopted-groups.json Welcome capture (`engine_default`, `white_noise_app`).
struct CapturedAdoptedGroup: Decodable {
    let epoch: UInt64
    let group_id: Hex
    let group_context_extensions: Hex
    let ratchet_tree: Hex
    let joiner_key_package_mls_message: Hex
    let joiner_key_package_ref: Hex
    let joiner_key_package_app_components: [UInt16]
    let joiner_private: CapturedKeys
    let welcome_mls_message: Hex
    let mdk_control_join_members: Int
}

struct CapturedNegatives: Decodable {
    let joiner_key_package: Hex
    let joiner_private: CapturedKeys
    let welcomes: [String: Hex]
    let commits: [String: Hex]
}

struct CapturedGroupsFile: Decodable {
    let engine_default: CapturedAdoptedGroup
    let white_noise_app: CapturedAdoptedGroup
    let openmls_negatives: CapturedNegatives
}

struct CapturedCommit: Decodable {
    let by: String
    let message: Hex
}

struct CapturedLifecycleLess: Decodable {
    let welcome: Hex
    let observer_key_package: Hex
    let observer_private: CapturedKeys
    let commits: [String: CapturedCommit]
    let by_ref: [String: Hex]
}

struct CapturedForgeries: Decodable {
    let welcome: Hex
    let observer_key_package: Hex
    let observer_private: CapturedKeys
    let o_leaf: UInt32
    let w_leaf: UInt32
    let y_leaf: UInt32
    let commits: [String: CapturedCommit]
    let by_ref: [String: Hex]
    let lifecycle_less: CapturedLifecycleLess
}

struct CapturedCommitsFile: Decodable {
    let openmls_forgeries: CapturedForgeries
}

enum Captured {
    static let suite = CipherSuite.x25519AES128GCMSHA256Ed25519

    static func groups() throws -> CapturedGroupsFile {
        try Vectors.decode(CapturedGroupsFile.self, from: "mdk-0.11/adopted-groups.json")
    }

    static func commits() throws -> CapturedCommitsFile {
        try Vectors.decode(CapturedCommitsFile.self, from: "mdk-0.11/adopted-commits.json")
    }

    /// A KeyPackage given either bare or inside an MLSMessage (the captures use both).
    static func keyPackage(_ bytes: [UInt8]) throws -> KeyPackage {
        if let message = try? MLSMessage(tlsBytes: bytes), case .keyPackage(let keyPackage) = message.body {
            return keyPackage
        }
        return try KeyPackage(tlsBytes: bytes)
    }

    static func welcome(_ bytes: [UInt8]) throws -> Welcome {
        guard case .welcome(let welcome) = try MLSMessage(tlsBytes: bytes).body else {
            throw MLSError(.malformed, "not a Welcome")
        }
        return welcome
    }

    static func owner(_ keyPackage: KeyPackage, _ keys: CapturedKeys) throws -> KeyPackagePrivate {
        // The recorded keys must be the key package's: otherwise a join failure would say nothing.
        #expect(try suite.hpkePublicKey(of: keys.init_key_private.bytes) == keyPackage.initKey)
        #expect(try suite.hpkePublicKey(of: keys.encryption_key_private.bytes) == keyPackage.leafNode.encryptionKey)
        #expect(try suite.signaturePublicKey(of: keys.signature_key_private_seed.bytes) == keyPackage.leafNode.signatureKey)
        return KeyPackagePrivate(
            keyPackage: keyPackage, initPrivateKey: keys.init_key_private.bytes,
            encryptionPrivateKey: keys.encryption_key_private.bytes, signaturePrivateKey: keys.signature_key_private_seed.bytes)
    }

    /// Joins `welcome` as the owner of `keyPackage`.
    static func join(
        _ welcome: [UInt8], keyPackage: [UInt8], keys: CapturedKeys, judge: GroupChangeJudge = acceptEveryChange
    ) throws -> Group {
        let own = try owner(try self.keyPackage(keyPackage), keys)
        return try Group(welcome: try self.welcome(welcome), keyPackage: own, judge: judge)
    }

    /// Processes `messages` in order on a copy of `group`; the error code of the first that
    /// fails, or nil when all apply.
    static func outcome(_ group: Group, _ messages: [[UInt8]], judge: GroupChangeJudge = acceptEveryChange) -> (
        group: Group, error: MLSError?
    ) {
        var copy = group
        for bytes in messages {
            do {
                _ = try copy.process(try MLSMessage(tlsBytes: bytes), judge: judge)
            } catch let error as MLSError {
                return (copy, error)
            } catch {
                return (copy, MLSError(.malformed, "\(error)"))
            }
        }
        return (copy, nil)
    }
}

@Suite struct CapturedCurrentProfileTests {
    let suite = Captured.suite

    /// The draft's ids as MDK puts them on the wire: required_capabilities names extension 0x0006
    /// and proposals 0x0008 (and 0x000a for White Noise); the KeyPackage marks last resort with
    /// the empty component 0x0004 in its app_data_dictionary; the leaf lists its components in
    /// component 0x0001. Every structure re-encodes to the captured bytes.
    @Test func wireIdentifiers() throws {
        let file = try Captured.groups()
        for (name, group, proposals) in [
            ("engine_default", file.engine_default, [Proposal.Kind.appDataUpdate]),
            ("white_noise_app", file.white_noise_app, [Proposal.Kind.appDataUpdate, Proposal.Kind.selfRemove]),
        ] {
            var reader = TLSReader(group.group_context_extensions.bytes)
            let extensions = try reader.readExtensions()
            #expect(reader.isAtEnd, "\(name)")
            var writer = TLSWriter()
            writer.writeVector(extensions)
            #expect(writer.bytes == group.group_context_extensions.bytes, "\(name): extensions re-encode")
            let required = try RequiredCapabilities(
                tlsBytes: try #require(extensions.data(ofType: ExtensionType.requiredCapabilities)))
            #expect(required.extensionTypes == [ExtensionType.appDataDictionary], "\(name)")
            #expect(Set(required.proposalTypes) == Set(proposals), "\(name)")
            let dictionary = try #require(try extensions.appDataDictionary(), "\(name)")
            #expect(try serialize(dictionary) == extensions.data(ofType: ExtensionType.appDataDictionary), "\(name)")
            #expect(try dictionary.appComponents()?.contains(0x8001) == true, "\(name): required components")

            let keyPackage = try Captured.keyPackage(group.joiner_key_package_mls_message.bytes)
            #expect(try keyPackage.reference(suite: suite) == group.joiner_key_package_ref.bytes, "\(name)")
            #expect(keyPackage.isLastResortComponent, "\(name): last_resort_key_package component")
            #expect(
                try keyPackage.extensions == [AppDataDictionary.lastResortKeyPackage.asExtension()],
                "\(name): the KeyPackage's only extension is the last-resort dictionary")
            #expect(!keyPackage.isLastResort, "\(name): no legacy last_resort extension")
            #expect(try keyPackage.leafNode.supportedComponents() == group.joiner_key_package_app_components, "\(name)")
            #expect(keyPackage.leafNode.capabilities.extensions.contains(ExtensionType.appDataDictionary), "\(name)")
            #expect(keyPackage.leafNode.capabilities.proposals.contains(Proposal.Kind.appDataUpdate), "\(name)")
            print("captured \(name): GroupContext components \(dictionary.entries.map { String($0.componentID, radix: 16) })")
        }
    }

    private func serialize(_ value: some TLSEncodable) throws -> [UInt8] { try value.tlsSerialized() }

    /// MDK's two adopted groups join at the MLS level with the joiner's recorded keys, and the
    /// joined state is the recorded one: group id, epoch, GroupContext extensions, ratchet tree.
    @Test func joinAdoptedWelcomes() throws {
        let file = try Captured.groups()
        for (name, captured) in [("engine_default", file.engine_default), ("white_noise_app", file.white_noise_app)] {
            var seen: WelcomeCandidate?
            let group = try Captured.join(
                captured.welcome_mls_message.bytes, keyPackage: captured.joiner_key_package_mls_message.bytes,
                keys: captured.joiner_private
            ) { change throws(MLSError) in
                if case .welcome(let candidate) = change { seen = candidate }
            }
            #expect(group.groupID == captured.group_id.bytes, "\(name)")
            #expect(group.epoch == captured.epoch, "\(name)")
            var writer = TLSWriter()
            writer.writeVector(group.context.extensions)
            #expect(writer.bytes == captured.group_context_extensions.bytes, "\(name): GroupContext extensions")
            #expect(try group.tree.wire.tlsSerialized() == captured.ratchet_tree.bytes, "\(name): ratchet tree")
            #expect(group.tree.occupiedLeaves.count == captured.mdk_control_join_members, "\(name): members")
            #expect(seen?.ownLeaf == group.leafIndex, "\(name): the judge saw the joined group")
            #expect(seen?.groupInfo.groupContext == group.context, "\(name)")

            // Twin: the judge's refusal is the join's failure.
            #expect(throws: MLSError(.refusedByCaller, "")) {
                _ = try Captured.join(
                    captured.welcome_mls_message.bytes, keyPackage: captured.joiner_key_package_mls_message.bytes,
                    keys: captured.joiner_private
                ) { _ throws(MLSError) in throw MLSError(.refusedByCaller, "test refuses") }
            }
            print("captured \(name): joined at epoch \(group.epoch) as leaf \(group.leafIndex) of \(group.tree.occupiedLeaves.count)")
        }
    }

    /// MLS's verdict on each of the six `openmls_negatives` Welcomes: all six are MLS-valid, and
    /// MDK's five refusals are Marmot's. `BadProof`, `MissingProof` (the 0x8009 identity proof)
    /// and `NonAdminInviter` (the 0x8003 admin list) are about component values MLS does not read;
    /// `MissingRequiredCapability` is a group whose required_capabilities leave out
    /// app_data_update (0x0008), which MLS allows and Marmot does not; `MixedGroup` carries the
    /// legacy 0xf2ee GroupContext extension, which the joiner's leaf lists among its capabilities,
    /// so RFC 9420 lets it join and only the profile rule refuses a group of both dialects.
    @Test func negativeWelcomes() throws {
        let negatives = try Captured.groups().openmls_negatives
        let expected: [String: MLSError.Code?] = [
            "Control": nil, "BadProof": nil, "MissingProof": nil, "MissingRequiredCapability": nil,
            "MixedGroup": nil, "NonAdminInviter": nil,
        ]
        #expect(Set(negatives.welcomes.keys) == Set(expected.keys))
        var joined = 0
        for (name, welcome) in negatives.welcomes.sorted(by: { $0.key < $1.key }) {
            var code: MLSError.Code?
            do {
                let group = try Captured.join(
                    welcome.bytes, keyPackage: negatives.joiner_key_package.bytes, keys: negatives.joiner_private)
                joined += 1
                let required = try group.context.extensions.data(ofType: ExtensionType.requiredCapabilities)
                    .map { try RequiredCapabilities(tlsBytes: $0) }
                let types = group.context.extensions.map { String($0.type, radix: 16) }
                let components = try group.context.extensions.appDataDictionary()?.appComponents() ?? []
                print(
                    "captured openmls_negatives.\(name): joins; GroupContext extensions \(types),",
                    "required \(String(describing: required)), components \(components.map { String($0, radix: 16) })")
            } catch let error as MLSError {
                code = error.code
                print("captured openmls_negatives.\(name): MLS refuses: \(error)")
            }
            #expect(code == expected[name] ?? nil, "openmls_negatives.\(name)")
        }
        print("captured openmls_negatives.welcomes: \(joined) of \(negatives.welcomes.count) join at the MLS level")
    }

    /// `openmls_negatives.commits`: the joiner of the valid two-member group processes each of the
    /// three Add commits from leaf 0. `add_valid` and `add_without_proof` apply (a proof is a
    /// component value, Marmot's to judge); `add_missing_component` adds a KeyPackage whose leaf
    /// does not list the required component 0x800c, which the extensions draft's component
    /// negotiation refuses at the MLS level, as RFC 9420 refuses a missing required capability.
    @Test func negativeCommits() throws {
        let negatives = try Captured.groups().openmls_negatives
        let welcome = try #require(negatives.commits["welcome"])
        let group = try Captured.join(welcome.bytes, keyPackage: negatives.joiner_key_package.bytes, keys: negatives.joiner_private)
        let names = negatives.commits.keys.filter { $0 != "welcome" }.sorted()
        #expect(names == ["add_missing_component", "add_valid", "add_without_proof"])
        var applied = 0
        for name in names {
            let (after, error) = Captured.outcome(group, [try #require(negatives.commits[name]).bytes])
            if name == "add_missing_component" {
                #expect(error?.code == .missingCapability, "\(name): \(String(describing: error))")
                #expect(after.epoch == group.epoch, "\(name): the refused commit leaves the state")
                print("captured openmls_negatives.commits.\(name): MLS refuses: \(String(describing: error))")
                continue
            }
            #expect(error == nil, "openmls_negatives.commits.\(name): \(String(describing: error))")
            #expect(after.epoch == group.epoch + 1 && after.tree.occupiedLeaves.count == 3, "\(name)")
            applied += 1
        }
        print("captured openmls_negatives.commits: \(applied) of \(names.count) commits apply at the MLS level")
    }
}

/// `openmls_forgeries` and `lifecycle_less` (adopted-commits.json), as the observer.
@Suite struct CapturedForgeryTests {
    /// Forgeries MLS itself refuses, with the code. None: every one of the 39 breaks only a
    /// Marmot rule (admins, component values, proofs), so all must apply at the MLS level, the
    /// `ok_*` ones MDK accepts and the others alike (docs/mls-extensions.md).
    static let mlsRefused: [String: MLSError.Code] = [:]

    static func observer() throws -> (CapturedForgeries, Group) {
        let forgeries = try Captured.commits().openmls_forgeries
        let group = try Captured.join(
            forgeries.welcome.bytes, keyPackage: forgeries.observer_key_package.bytes, keys: forgeries.observer_private)
        #expect(group.leafIndex == forgeries.o_leaf)
        #expect(group.epoch == 1)
        return (forgeries, group)
    }

    /// Every epoch-1 commit on a fresh copy of the observer's epoch-1 state: membership tag,
    /// signature, proposals, path and confirmation tag all checked by `process`.
    @Test func forgeryCommits() throws {
        let (forgeries, group) = try Self.observer()
        #expect(forgeries.commits.count == 39)
        var applied: [String] = []
        var refused: [String: MLSError.Code] = [:]
        for (name, captured) in forgeries.commits.sorted(by: { $0.key < $1.key }) {
            let (after, error) = Captured.outcome(group, [captured.message.bytes])
            if let error {
                refused[name] = error.code
                print("captured openmls_forgeries.commits.\(name): MLS refuses: \(error)")
            } else {
                applied.append(name)
                #expect(after.epoch == 2 || !after.isActive, "\(name)")
            }
            if name.hasPrefix("ok_") { #expect(error == nil, "\(name) is accepted by MDK, so it must be MLS-valid") }
        }
        #expect(refused == Self.mlsRefused)
        print("captured openmls_forgeries.commits: \(applied.count) apply, \(refused.count) refused by MLS")
    }

    /// The judge sees the next epoch as the commit makes it, and its refusal leaves the state.
    @Test func judgeOnCapturedCommit() throws {
        let (forgeries, group) = try Self.observer()
        let rename = try #require(forgeries.commits["ok_rename"]).message.bytes
        var seen: CommitCandidate?
        var copy = group
        _ = try copy.process(try MLSMessage(tlsBytes: rename)) { change throws(MLSError) in
            if case .commit(let candidate) = change { seen = candidate }
        }
        let candidate = try #require(seen)
        #expect(candidate.context == copy.context)
        #expect(candidate.previousContext == group.context)
        #expect(candidate.committer == .member(leafIndex: 0))
        let updates = candidate.proposals.compactMap { item -> AppDataUpdate? in
            if case .appDataUpdate(let update) = item.proposal { update } else { nil }
        }
        #expect(!updates.isEmpty)
        let dictionary = try #require(try copy.context.extensions.appDataDictionary())
        for update in updates {
            if case .update(let value) = update.operation, update == updates.last(where: { $0.componentID == update.componentID }) {
                #expect(dictionary[update.componentID] == value)
            }
        }

        var refusing = group
        #expect(throws: MLSError(.refusedByCaller, "")) {
            _ = try refusing.process(try MLSMessage(tlsBytes: rename)) { change throws(MLSError) in
                if case .commit = change { throw MLSError(.refusedByCaller, "test refuses") }
            }
        }
        #expect(refusing.epoch == 1 && refusing.context == group.context)

        // Twins of the replay: the PublicMessage's last byte is its membership tag's; a flipped
        // byte of the signed content is refused too.
        var tampered = rename
        tampered[tampered.count - 1] ^= 0x01
        #expect(Captured.outcome(group, [tampered]).error?.code == .badMembershipTag)
        var content = rename
        content[60] ^= 0x01
        #expect(Captured.outcome(group, [content]).error != nil)
    }

    /// Proposals by reference, then the commits citing them; the epoch-2 pair after `demote_w`.
    @Test func byReference() throws {
        let (forgeries, group) = try Self.observer()
        let refs = forgeries.by_ref
        #expect(refs.count == 8)
        func bytes(_ name: String) throws -> [UInt8] { try #require(refs[name], "by_ref.\(name)").bytes }
        let sequences: [[String]] = [
            ["proposal_y", "commit_x_of_y"],
            ["proposal_x", "commit_x"],
            ["commit_x"],
            ["proposal_w_epoch1"],
            ["demote_w", "proposal_w_epoch2", "commit_x_of_w_epoch2"],
        ]
        for sequence in sequences {
            var cited: [[UInt8]] = []
            var copy = group
            for name in sequence {
                _ = try copy.process(try MLSMessage(tlsBytes: try bytes(name))) { change throws(MLSError) in
                    if case .commit(let candidate) = change { cited += candidate.proposals.compactMap(\.reference) }
                }
            }
            let expectedEpoch: UInt64 = sequence.last!.hasPrefix("commit") ? (sequence.contains("demote_w") ? 3 : 2) : 1
            #expect(copy.epoch == expectedEpoch, "\(sequence)")
            if sequence.last == "commit_x_of_y" || sequence.last == "commit_x_of_w_epoch2" {
                #expect(cited.count == 1, "\(sequence) cites its proposal by reference")
            }
            let steps = sequence.joined(separator: " → ")
            print("captured openmls_forgeries.by_ref \(steps): epoch \(copy.epoch), \(cited.count) by reference")
        }
        // A commit citing a proposal the observer never saw cannot be applied.
        #expect(Captured.outcome(group, [try bytes("commit_x_of_y")]).error?.code == .unknownProposal)
    }

    /// `lifecycle_less`: three commits, and WL's proposal with XL's commit citing it.
    @Test func lifecycleLess() throws {
        let less = try Captured.commits().openmls_forgeries.lifecycle_less
        let group = try Captured.join(less.welcome.bytes, keyPackage: less.observer_key_package.bytes, keys: less.observer_private)
        #expect(group.tree.occupiedLeaves.count == 3)
        for (name, captured) in less.commits.sorted(by: { $0.key < $1.key }) {
            let (after, error) = Captured.outcome(group, [captured.message.bytes])
            #expect(error == nil, "lifecycle_less.commits.\(name): \(String(describing: error))")
            #expect(after.epoch == 2, "\(name)")
        }
        let proposal = try #require(less.by_ref["proposal_wl_requirements"]).bytes
        let commit = try #require(less.by_ref["commit_xl_enable_by_ref"]).bytes
        let (after, error) = Captured.outcome(group, [proposal, commit])
        #expect(error == nil, "lifecycle_less.by_ref: \(String(describing: error))")
        #expect(after.epoch == 2)
        print("captured lifecycle_less: \(less.commits.count) commits and 1 by-reference pair apply")
    }
}
