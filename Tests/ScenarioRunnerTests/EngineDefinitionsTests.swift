import ScenarioModel
import Testing

/// The engines file (docs/engines.md): every problem at its `file:line:column`.
@Suite struct EngineDefinitionsTests {
    @Test func aFileDefinesEnginesByName() throws {
        let file = try EngineDefinitions(
            yaml: """
                - name: mdk-dev
                  command: ../mdk/driver.py
                  arguments: [--log, warn]
                  env: { RUST_LOG: warn, B: "2" }
                  version: 0.9.0-dev
                - name: mdk
                  command: /opt/mdk/driver
                """, file: "engines.yaml")
        let dev = try #require(file["mdk-dev"])
        #expect(dev.command == "../mdk/driver.py" && dev.arguments == ["--log", "warn"] && dev.version == "0.9.0-dev")
        #expect(dev.environment.map(\.key) == ["RUST_LOG", "B"] && dev.environment.map(\.value) == ["warn", "2"])
        #expect(file["mdk"]?.command == "/opt/mdk/driver" && file["mdk"]?.version == nil)
    }

    @Test(arguments: [
        ("- name: x\n  comand: y\n", "engines.yaml:2:3: unknown key 'comand' in an engine (did you mean 'command'?)"),
        ("- name: x\n", "engines.yaml:1:3: an engine is missing the required field 'command'"),
        ("- name: swift\n  command: y\n", "engines.yaml:1:9: 'swift' is built in and cannot be redefined"),
        ("- name: a b\n  command: y\n", "engines.yaml:1:9: an engine name is letters, digits"),
        ("- name: x\n  command: y\n- name: x\n  command: z\n", "engines.yaml:3:9: a second engine named 'x'"),
        ("- name: x\n  command: y\n  env: [a]\n", "engines.yaml:3:8: env must be a mapping"),
        ("name: x\n", "engines.yaml:1:1: the engines file must be a list"),
    ])
    func badFilesNameTheirPosition(text: String, message: String) {
        #expect {
            _ = try EngineDefinitions(yaml: text, file: "engines.yaml")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
