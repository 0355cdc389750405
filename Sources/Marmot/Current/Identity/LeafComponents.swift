import ErrorCodes
import MLS
import Nostr

/// The current profile's rules for one LeafNode (in a KeyPackage, a Welcome tree, an Add, an
/// Update or an UpdatePath): its `app_data_dictionary`, its support list and its identity proof.
package struct LeafComponents: Hashable, Sendable {
    /// The account named by the basic credential (the proof's signer).
    package let account: PublicKey
    /// The components the leaf says it supports (its `app_components` entry).
    package let supported: AppComponents
    package let proof: AuthorizationProof
    package let dictionary: AppDataDictionary

    /// Checks every rule of account-identity-proof-v2.md for `leaf` in `suite` (the KeyPackage's
    /// suite for a key package, the group's for a member leaf):
    /// basic credential naming a valid x-only key; a dictionary with `app_components` listing
    /// 0x8009 and exactly one 0x8009 entry; 104 valid proof bytes signed by that account over the
    /// kind-450 template naming this leaf's signature key.
    /// - Throws: `.proofBadCredential`, `.profileMismatch` (a legacy 0xf2f1 proof beside it),
    ///   `.proofNotAdvertised`, `.proofMissing`, `.proofMalformed`, `.proofSignerMismatch`,
    ///   `.proofBadSignature`, `.dictionaryInvalid`, `.componentListInvalid`.
    package init(verifying leaf: LeafNode, suite: UInt16) throws(MarmotError) {
        guard case .basic(let identity) = leaf.credential else {
            throw MarmotError(.proofBadCredential, "the credential is not a basic credential")
        }
        do { account = try PublicKey(bytes: identity) } catch {
            throw MarmotError(.proofBadCredential, "the credential identity is not an x-only secp256k1 key")
        }
        // No mixed v1/v2 leaf (account-identity-proof-v2.md, "Migration from v1"): a leaf that
        // also carries the legacy 0xf2f1 proof is of neither profile, as MDK also judges it.
        guard !leaf.extensions.contains(where: { $0.type == CurrentProfileCodePoints.legacyIdentityProof }) else {
            throw MarmotError(.profileMismatch, "the leaf carries the legacy 0xf2f1 proof beside the current profile's")
        }
        guard let dictionary = try AppDataDictionary.marmot(in: leaf.extensions) else {
            throw MarmotError(.proofMissing, "the leaf has no app_data_dictionary, so no 0x8009 proof")
        }
        guard let supported = try AppComponents.marmot(in: dictionary), supported.contains(AccountIdentityProof.component) else {
            throw MarmotError(.proofNotAdvertised, "the leaf's app_components does not list 0x8009")
        }
        guard let data = dictionary[component: AccountIdentityProof.component] else {
            throw MarmotError(.proofMissing, "the leaf's app_data_dictionary has no 0x8009 entry")
        }
        let proof = try AuthorizationProof(bytes: data)
        try AccountIdentityProof.verify(proof, account: account, suite: suite, signatureKey: leaf.signatureKey)
        self.supported = supported
        self.proof = proof
        self.dictionary = dictionary
    }

    /// The `app_data_dictionary` extension of a new leaf of `account`: `app_components` listing
    /// `supported` (0x0001 and 0x8009 are added when missing, the list kept ascending), an empty
    /// `safe_aad` list and a fresh 0x8009 proof for `signatureKey`.
    /// - Throws: `.proofMalformed` for a bad `createdAt` or an unknown suite.
    package static func leafExtension(
        account: Keypair, signatureKey: [UInt8], suite: UInt16, supported: [AppComponentID], createdAt: UInt64,
        using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Extension {
        let ids = Set(supported + [.appComponents, AccountIdentityProof.component]).sorted()
        let proof = try AccountIdentityProof.create(
            account: account, createdAt: createdAt, suite: suite, signatureKey: signatureKey, using: &generator)
        // MDK v0.11.0's leaves also carry safe_aad (0x0002) with an empty list: the leaf
        // understands the component (the draft requires it of dictionary implementations) and
        // contributes no AAD. We write the same, so our leaves and MDK's have one shape.
        var dictionary = AppDataDictionary()
        dictionary.set(AppComponentID.appComponents.rawValue, to: AppComponents(ids).encoded())
        dictionary.set(AppComponentID.safeAAD.rawValue, to: AppComponents([]).encoded())
        dictionary.set(AccountIdentityProof.component.rawValue, to: proof.encoded())
        return dictionary.mlsExtension
    }

    /// The KeyPackage-level `app_data_dictionary` of a last-resort key package: one empty
    /// `last_resort_key_package` (0x0004) entry.
    package static let lastResortExtension: Extension = {
        var dictionary = AppDataDictionary()
        dictionary.set(AppComponentID.lastResortKeyPackage.rawValue, to: [])
        return dictionary.mlsExtension
    }()

    /// Whether a KeyPackage is marked last-resort (an empty 0x0004 entry in its own dictionary).
    /// - Throws: `.dictionaryInvalid`, or `.componentInvalid` for a 0x0004 entry with data.
    package static func isLastResort(_ keyPackage: KeyPackage) throws(MarmotError) -> Bool {
        guard let dictionary = try AppDataDictionary.marmot(in: keyPackage.extensions),
            let marker = dictionary[component: .lastResortKeyPackage]
        else { return false }
        guard marker.isEmpty else {
            throw MarmotError(.componentInvalid, "\(AppComponentID.lastResortKeyPackage) must carry empty data")
        }
        return true
    }
}
