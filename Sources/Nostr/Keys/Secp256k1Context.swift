import CSecp256k1

/// The process-wide libsecp256k1 context.
///
/// `secp256k1_context_static` cannot be referenced in Swift 6 mode (it imports as a mutable
/// global), so we create one context. It is never randomized with OS entropy: blinding only
/// hardens against side channels, and drawing from the OS here would break replayable runs.
/// This type is `@unchecked Sendable` because libsecp256k1 documents every operation we call
/// on a created context as read-only, and the context is never destroyed.
final class Secp256k1Context: @unchecked Sendable {
    static let shared = Secp256k1Context()
    let raw: OpaquePointer

    private init() {
        guard let ctx = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)) else {
            fatalError("secp256k1_context_create failed")  // only on allocation failure
        }
        raw = ctx
    }
}
