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
    /// - Throws: `.proofBadCredential`, `.proofNotAdvertised`, `.proofMissing`, `.proofMalformed`,
    ///   `.proofSignerMismatch`, `.proofBadSignature`, `.dictionaryInvalid`, `.componentListInvalid`.
    package init(verifying leaf: LeafNode, suite: UInt16) throws(MarmotError) {
        guard case .basic(let identity) = leaf.credential else {
            throw MarmotError(.proofBadCredential, "the credential is not a basic credential")
        }
        do { account = try PublicKey(bytes: identity) } catch {
            throw MarmotError(.proofBadCredential, "the credential identity is not an x-only secp256k1 key")
        }
        guard let dictionary = try AppDataDictionary(extensions: leaf.extensions) else {
            throw MarmotError(.proofMissing, "the leaf has no app_data_dictionary, so no 0x8009 proof")
        }
        guard let supported = try AppComponents(in: dictionary), supported.contains(AccountIdentityProof.component) else {
            throw MarmotError(.proofNotAdvertised, "the leaf's app_components does not list 0x8009")
        }
        guard let data = dictionary[AccountIdentityProof.component] else {
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
        account: Keypair, signatureKey: [UInt8], suite: UInt16, supported: [ComponentID], createdAt: UInt64,
        using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Extension {
        let ids = Set(supported + [.appComponents, AccountIdentityProof.component]).sorted()
        let proof = try AccountIdentityProof.create(
            account: account, createdAt: createdAt, suite: suite, signatureKey: signatureKey, using: &generator)
        // MDK v0.11.0's leaves also carry safe_aad (0x0002) with an empty list: the leaf
        // understands the component (the draft requires it of dictionary implementations) and
        // contributes no AAD. We write the same, so our leaves and MDK's have one shape.
        let dictionary = AppDataDictionary(ascending: [
            ComponentData(id: .appComponents, data: AppComponents(ids).encoded()),
            ComponentData(id: .safeAAD, data: AppComponents([]).encoded()),
            ComponentData(id: AccountIdentityProof.component, data: proof.encoded()),
        ])
        return dictionary.mlsExtension
    }

    /// The KeyPackage-level `app_data_dictionary` of a last-resort key package: one empty
    /// `last_resort_key_package` (0x0004) entry.
    package static let lastResortExtension = AppDataDictionary(ascending: [ComponentData(id: .lastResortKeyPackage, data: [])])
        .mlsExtension

    /// Whether a KeyPackage is marked last-resort (an empty 0x0004 entry in its own dictionary).
    /// - Throws: `.dictionaryInvalid`, or `.componentInvalid` for a 0x0004 entry with data.
    package static func isLastResort(_ keyPackage: KeyPackage) throws(MarmotError) -> Bool {
        guard let dictionary = try AppDataDictionary(extensions: keyPackage.extensions),
            let marker = dictionary[.lastResortKeyPackage]
        else { return false }
        guard marker.isEmpty else {
            throw MarmotError(.componentInvalid, "\(ComponentID.lastResortKeyPackage) must carry empty data")
        }
        return true
    }
}
