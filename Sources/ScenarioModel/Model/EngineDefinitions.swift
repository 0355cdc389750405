// The engines file (`engines.yaml` at the repository root, or `--engines FILE`): engines that run
// behind the driver protocol, by name, so that `--engine NAME` runs the suite on them without
// editing Swift code (docs/engines.md).
//
//   - name: mdk-dev                      # [A-Za-z0-9._-]+; `swift` and `mixed` are reserved,
//     command: ../mdk/target/driver      # `mdk` replaces the built-in MDK driver
//     arguments: [--verbose]             # optional
//     env: { RUST_LOG: warn }            # optional, strings
//     version: 0.9.0-dev                 # optional: the version `hello` must report

/// One engine of the engines file.
package struct EngineDefinition: Hashable, Sendable {
    package let name: String
    /// A bare program name (looked up on PATH) or a path, relative paths taken from the file's folder.
    package let command: String
    package let arguments: [String]
    /// Variables set for the driver, in file order.
    package let environment: [(key: String, value: String)]
    /// The version the driver's `hello` must report, when given.
    package let version: String?
    package let location: SourceLocation

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.command == rhs.command && lhs.arguments == rhs.arguments
            && lhs.environment.map(\.key) == rhs.environment.map(\.key) && lhs.environment.map(\.value) == rhs.environment.map(\.value)
            && lhs.version == rhs.version
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(command)
    }
}

/// The engines file, loaded and checked; every problem is `file:line:column: what is wrong`.
package struct EngineDefinitions: Sendable {
    package let entries: [EngineDefinition]

    static let keys = ["name", "command", "arguments", "env", "version"]
    /// Names the file may not define: our in-process engine and the built-in assignment.
    package static let reserved = [EngineName.swift.rawValue, EngineName.mixedSelection]

    package init(entries: [EngineDefinition]) { self.entries = entries }

    package init(yaml text: String, file: String) throws(ScenarioError) {
        let root = try YAMLLoader.load(text, file: file)
        var entries: [EngineDefinition] = []
        for node in try root.list("the engines file") {
            let f = try node.fields(of: "an engine", allowed: Self.keys, required: ["name", "command"])
            let nameNode = try f.required("name")
            let name = try nameNode.string("name")
            guard Self.isName(name) else {
                throw ScenarioError(
                    .invalidValue, at: nameNode.location, "an engine name is letters, digits, '.', '_' or '-', found '\(name)'")
            }
            guard !Self.reserved.contains(name) else {
                throw ScenarioError(.invalidValue, at: nameNode.location, "'\(name)' is built in and cannot be redefined")
            }
            if entries.contains(where: { $0.name == name }) {
                throw ScenarioError(.duplicateName, at: nameNode.location, "a second engine named '\(name)'")
            }
            let commandNode = try f.required("command")
            let command = try commandNode.string("command")
            guard !command.isEmpty else { throw ScenarioError(.invalidValue, at: commandNode.location, "command must not be empty") }
            var environment: [(key: String, value: String)] = []
            if let env = f["env"] {
                guard case .mapping(let pairs) = env.value else {
                    throw ScenarioError(
                        .wrongType, at: env.location, "env must be a mapping of variable names to strings, found \(env.kindName)")
                }
                for pair in pairs { environment.append((pair.key, try pair.value.string("env.\(pair.key)"))) }
            }
            entries.append(
                EngineDefinition(
                    name: name, command: command, arguments: try f["arguments"]?.stringList("arguments") ?? [], environment: environment,
                    version: try f["version"]?.string("version"), location: f.location))
        }
        self.entries = entries
    }

    package subscript(name: String) -> EngineDefinition? { entries.first { $0.name == name } }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }
}
