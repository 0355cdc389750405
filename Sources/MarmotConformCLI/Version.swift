// The one place marmot-conform's version is defined: `--version`, the JSON report's `tool` field
// and capsules all read it from here.
enum ToolVersion {
    static let current = "0.1.0"
}
