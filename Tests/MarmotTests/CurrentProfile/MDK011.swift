import HexEncoding
import MLS
import Marmot
import Nostr

/// Reads MDK v0.11.0's captured current-profile bytes (`vectors/mdk-0.11/`).
enum MDK011 {
    static func groups() throws -> [String: Any] { try MDKVectors.file("adopted-groups.json", folder: "mdk-0.11") }
    static func commits() throws -> [String: Any] { try MDKVectors.file("adopted-commits.json", folder: "mdk-0.11") }
    static func forks() throws -> [String: Any] { try MDKVectors.file("convergence-forks.json", folder: "mdk-0.11") }

    /// The two Welcome captures MDK's engine made.
    static let adoptedGroups = ["engine_default", "white_noise_app"]

    /// A KeyPackage stored as hex: an `mls_key_package` MLSMessage or a bare KeyPackage.
    static func keyPackage(_ root: [String: Any], _ path: String) throws -> KeyPackage {
        let bytes = try MDKVectors.bytes(root, path)
        if let message = try? MLSMessage(tlsBytes: bytes), case .keyPackage(let keyPackage) = message.body { return keyPackage }
        return try KeyPackage(tlsBytes: bytes)
    }

    /// Every captured key package, by path, with the private keys that open Welcomes to it.
    static func allKeyPackages() throws -> [(name: String, keyPackage: KeyPackage)] {
        let groups = try groups()
        let commits = try commits()
        let forks = try forks()
        var out: [(String, KeyPackage)] = []
        for name in adoptedGroups { out.append(("\(name) joiner", try keyPackage(groups, "\(name)/joiner_key_package_mls_message"))) }
        out.append(("openmls_negatives joiner", try keyPackage(groups, "openmls_negatives/joiner_key_package")))
        out.append(("mdk_engine observer", try keyPackage(commits, "mdk_engine/observer_key_package_mls_message")))
        out.append(("openmls_forgeries observer", try keyPackage(commits, "openmls_forgeries/observer_key_package")))
        out.append(("lifecycle_less observer", try keyPackage(commits, "openmls_forgeries/lifecycle_less/observer_key_package")))
        out.append(("forks observer", try keyPackage(forks, "forks/observer_key_package_mls_message")))
        return out
    }

    /// The GroupInfo of a Welcome (hex MLSMessage) opened with a recorded joiner's keys.
    static func openWelcome(_ root: [String: Any], welcome path: String, keyPackage: KeyPackage, privatePath: String) throws -> GroupInfo {
        let message = try MLSMessage(tlsBytes: try MDKVectors.bytes(root, path))
        guard case .welcome(let welcome) = message.body else { throw MDKVectors.Missing(path: path) }
        let opened = try welcome.open(
            keyPackage: keyPackage, initPrivateKey: try MDKVectors.bytes(root, "\(privatePath)/init_key_private"),
            suite: MarmotCapabilities.suite
        ) { (_: [PreSharedKeyID]) throws(MLSError) in [] }
        return opened.groupInfo
    }

    /// The tree a GroupInfo carries in its ratchet_tree extension.
    static func tree(of info: GroupInfo) throws -> RatchetTree {
        guard let data = info.extensions.data(ofType: ExtensionType.ratchetTree) else { throw MDKVectors.Missing(path: "ratchet_tree") }
        return try RatchetTree(bytes: data)
    }
}

/// One proposal of a captured commit or proposal message, inline or by reference.
enum WalkedProposal {
    case appDataUpdate(AppDataUpdate)
    case proposal(Proposal)
    case reference([UInt8])
}

/// The proposals of a captured PublicMessage (a commit's list, or a standalone proposal), decoded
/// by the MLS target, with AppDataUpdates set apart for Marmot's component rules.
enum ProposalWalker {
    static func proposals(_ bytes: [UInt8]) throws -> (sender: Sender, proposals: [WalkedProposal]) {
        let message = try MLSMessage(tlsBytes: bytes)
        guard case .publicMessage(let publicMessage) = message.body else { throw MDKVectors.Missing(path: "public message") }
        let content = publicMessage.content
        switch content.content {
        case .proposal(let proposal): return (content.sender, [walked(proposal)])
        case .commit(let commit):
            return (
                content.sender,
                commit.proposals.map { item in
                    switch item {
                    case .proposal(let proposal): walked(proposal)
                    case .reference(let ref): .reference(ref)
                    }
                }
            )
        case .application: throw MDKVectors.Missing(path: "proposal or commit")
        }
    }

    private static func walked(_ proposal: Proposal) -> WalkedProposal {
        if case .appDataUpdate(let update) = proposal { return .appDataUpdate(update) }
        return .proposal(proposal)
    }
}
