// The decoders that read untrusted bytes, each as a fuzz target: one input in, a typed error or a
// value out. A trap, a hang or unbounded memory is the bug a fuzzer reports; a thrown error is the
// expected answer to garbage. The same table drives the libFuzzer entry point (`marmot-fuzz`
// built with -sanitize=fuzzer), the corpus replay and the regression test over committed inputs.
import DriverProtocol
import MLS
import Marmot
import NativeSwiftEngine
import Nostr
import ScenarioModel
import TLSCodec

/// One decoder under fuzzing.
package struct FuzzTarget: Sendable {
    /// The name used on the command line and as the corpus folder, e.g. `nostr-event`.
    package let name: String
    /// What the decoder reads, for `marmot-fuzz list`.
    package let summary: String
    /// Decodes `input`: true when it decoded, false for a typed error (the correct answer to garbage).
    package let run: @Sendable ([UInt8]) -> Bool

    /// Every target, in the order `ci/fuzz` runs them.
    package static let all: [FuzzTarget] = [
        FuzzTarget(name: "json", summary: "NIP-01 JSON text (our strict parser)") { input in
            (try? JSONValue(parsing: input)) != nil
        },
        FuzzTarget(name: "nostr-event", summary: "a signed event: JSON, id and BIP-340 signature") { input in
            (try? Event(json: String(decoding: input, as: UTF8.self))) != nil
        },
        FuzzTarget(name: "relay-frame", summary: "a relay-to-client frame (EVENT, OK, EOSE, CLOSED, …)") { input in
            (try? RelayMessage(json: String(decoding: input, as: UTF8.self))) != nil
        },
        FuzzTarget(name: "client-frame", summary: "a client-to-relay frame (EVENT, REQ, COUNT, CLOSE, AUTH)") { input in
            (try? ClientMessage(json: String(decoding: input, as: UTF8.self))) != nil
        },
        FuzzTarget(name: "nip44-payload", summary: "a NIP-44 v2 payload (base64, lengths, version)") { input in
            (try? NIP44.Payload(decoding: String(decoding: input, as: UTF8.self))) != nil
        },
        FuzzTarget(name: "nip19", summary: "a NIP-19 bech32 entity") { input in
            (try? NIP19.decode(String(decoding: input, as: UTF8.self))) != nil
        },
        FuzzTarget(name: "mls-message", summary: "an MLSMessage (RFC 9420 §6)") { input in
            (try? MLSMessage(tlsBytes: input)) != nil
        },
        FuzzTarget(name: "mls-welcome", summary: "a Welcome (RFC 9420 §12.4.3.1)") { input in
            (try? Welcome(tlsBytes: input)) != nil
        },
        FuzzTarget(name: "mls-group-info", summary: "a GroupInfo (RFC 9420 §12.4.3)") { input in
            (try? GroupInfo(tlsBytes: input)) != nil
        },
        FuzzTarget(name: "mls-key-package", summary: "a KeyPackage (RFC 9420 §10)") { input in
            (try? KeyPackage(tlsBytes: input)) != nil
        },
        FuzzTarget(name: "ratchet-tree", summary: "a ratchet_tree extension, then the tree built from it (RFC 9420 §12.4.3.3)") { input in
            (try? RatchetTree(bytes: input)) != nil
        },
        FuzzTarget(name: "scenario-file", summary: "a scenario file: YAML, then the typed model (file:line:column errors)") { input in
            (try? Scenario(yaml: String(decoding: input, as: UTF8.self), file: "fuzz.yaml")) != nil
        },
        FuzzTarget(name: "marmot-group-data", summary: "the Marmot group data extension 0xF2EE (MIP-01)") { input in
            (try? GroupData(bytes: input)) != nil
        },
        FuzzTarget(name: "driver-reply", summary: "a driver's reply line: the response envelope, then every result record") { input in
            DriverReplyFuzzing.decode(String(decoding: input, as: UTF8.self))
        },
        FuzzTarget(name: "engine-state", summary: "our engine's state file: header, version, then every record and its checks") { input in
            (try? NativeSwiftEngine.reencodedState(input)) != nil
        },
    ]

    /// The target called `name`.
    package static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
