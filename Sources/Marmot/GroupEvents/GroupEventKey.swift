import MLS

/// The key of the kind-445 outer layer: MLS-Exporter("marmot", "group-event", 32) of the sender's
/// epoch (MDK 0.8.0; the older spec's NIP-44 conversation key is not used).
package enum GroupEventKey {
    package static let label = "marmot"
    package static let context = Array("group-event".utf8)
    package static let length = 32

    /// The key of `group`'s current epoch.
    package static func of(_ group: Group) -> [UInt8] {
        group.export(label: label, context: context, length: length)
    }

    /// The key from a raw epoch exporter_secret (RFC 9420 §8.5), for checking stored secrets.
    package static func derive(exporterSecret: [UInt8]) -> [UInt8] {
        let suite = MarmotCapabilities.suite
        let derived = suite.deriveSecret(secret: exporterSecret, label: label)
        return suite.expandWithLabel(secret: derived, label: "exported", context: suite.hash(context), length: length)
    }
}
