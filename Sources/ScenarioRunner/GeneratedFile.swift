/// A file a generator writes under the repository (a scenario of a generated family, its report or
/// CI sample): the fault matrix, the catch-up depth family and the role matrix each produce a list
/// of these, `marmot-conform` writes them, and a test compares them with what is committed.
package struct GeneratedFile: Sendable {
    /// Relative to the repository root.
    package let path: String
    package let text: String

    package init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
