import Foundation
import ScenarioRunner

/// Writing a generated family (`fault-matrix`, `catch-up-depth`, `role-matrix`): every file the
/// generator gives, and, where the family owns a folder, the deletion of scenarios in it the
/// generator no longer gives (a pruned or unselected cell), so the folder is exactly the table.
enum GeneratedFamily {
    /// Writes `files` under `root`; with `ownedFolder`, first removes that folder's `.yaml` files
    /// that are not among them. Returns how many files were written.
    @discardableResult
    static func write(_ files: [GeneratedFile], under root: URL, ownedFolder: String? = nil) throws -> Int {
        if let ownedFolder {
            let generated = Set(files.map(\.path))
            let folder = root.appendingPathComponent(ownedFolder)
            let existing = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".yaml") }.map { "\(ownedFolder)/\($0)" }
            for stale in existing.sorted() where !generated.contains(stale) {
                try FileManager.default.removeItem(at: root.appendingPathComponent(stale))
                Console.line("removed \(stale)")
            }
        }
        for file in files {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
        }
        return files.count
    }
}
