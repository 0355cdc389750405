import MLS

/// The key of the kind-445 outer layer: MLS-Exporter("marmot", "group-event", 32) of the sender's
/// epoch (MDK 0.8.0; the older spec's NIP-44 conversation key is not used).
public enum GroupEventKey {
    public static let label = "marmot"
    public static let context = Array("group-event".utf8)
    public static let length = 32

    /// The key of `group`'s current epoch.
    public static func of(_ group: Group) -> [UInt8] {
        group.export(label: label, context: context, length: length)
    }

    /// The key from a raw epoch exporter_secret (RFC 9420 §8.5), for checking stored secrets.
    public static func derive(exporterSecret: [UInt8]) -> [UInt8] {
        let suite = MarmotCapabilities.suite
        let derived = suite.deriveSecret(secret: exporterSecret, label: label)
        return suite.expandWithLabel(secret: derived, label: "exported", context: suite.hash(context), length: length)
    }
}
