// The relay servers the real lane runs as child processes, and how each is started
// (docs/real-network.md, "Relay kinds"). Both print a line with their `ws://127.0.0.1:<port>` URL
// once they listen and stop on SIGTERM or when their stdin closes, which is what RelayProcess
// waits for and does.

/// A relay server the real lane can run.
package enum RelayKind: String, Sendable, CaseIterable {
    /// `marmot-conform relay --port 0 --lane-orders`: our in-memory relay served over WebSocket (swift-nio).
    case ours
    /// rust-nostr's LocalRelay (PyPI nostr-sdk 0.45.1, the relay library MDK's own real-network
    /// lane uses), served by `drivers/relays/localrelay-host.py` from the project's venv.
    case localrelay

    /// What a scenario relay asks of the server besides relaying (scenario policies and limits).
    package struct Requirements: Sendable, Hashable {
        /// NIP-70 protected events refused even after AUTH (`reject-protected`).
        package var rejectsProtected = false
        /// Gift wraps served only to their authenticated recipient (`require-auth`).
        package var giftWrapsRequireAuth = false
        /// Stored events served for a filter without `limit` (`max-results`); nil: the server's own.
        package var maximumResults: Int?
        package init(rejectsProtected: Bool = false, giftWrapsRequireAuth: Bool = false, maximumResults: Int? = nil) {
            self.rejectsProtected = rejectsProtected
            self.giftWrapsRequireAuth = giftWrapsRequireAuth
            self.maximumResults = maximumResults
        }
    }

    /// How to start one relay: a program and its arguments.
    package struct Command: Sendable, Equatable {
        package let executable: String
        package let arguments: [String]
    }

    /// The most stored events LocalRelay serves for one REQ, whatever it is configured with
    /// (measured: `max_filter_limit` above 500 has no effect; docs/nostr-relay-semantics.md).
    package static let localRelayResultCap = 500

    /// Why this kind cannot give a relay what it needs, or nil.
    package func unsupported(_ requirements: Requirements) -> String? {
        switch self {
        case .ours:
            return nil
        case .localrelay:
            if requirements.rejectsProtected { return "LocalRelay accepts protected events after AUTH ('reject-protected')" }
            if requirements.giftWrapsRequireAuth { return "the LocalRelay host does not restrict gift wraps ('require-auth')" }
            if let limit = requirements.maximumResults, limit > Self.localRelayResultCap {
                return "LocalRelay serves at most \(Self.localRelayResultCap) events per REQ ('max-results: \(limit)')"
            }
            return nil
        }
    }

    /// The command starting one relay of this kind: `marmotConform` is our CLI's executable,
    /// `root` the repository (the venv and the host script are found under it).
    package func command(for requirements: Requirements, marmotConform: String, root: String) -> Command {
        switch self {
        case .ours:
            // `--lane-orders`: the lane may ask it to reject an EVENT or withhold its OK
            // (docs/real-network.md); LocalRelay takes no such orders.
            var arguments = ["relay", "--port", "0", "--lane-orders"]
            if requirements.rejectsProtected { arguments.append("--reject-protected") }
            if requirements.giftWrapsRequireAuth { arguments.append("--gift-wraps-require-auth") }
            if let limit = requirements.maximumResults { arguments += ["--max-results", String(limit)] }
            return Command(executable: marmotConform, arguments: arguments)
        case .localrelay:
            var arguments = [root + "/drivers/relays/localrelay-host.py"]
            if let limit = requirements.maximumResults { arguments += ["--default-limit", String(limit)] }
            return Command(executable: root + "/.venv/bin/python", arguments: arguments)
        }
    }
}
