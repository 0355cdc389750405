// swift-tools-version:6.1
// marmot-conform: conformance gate and interop bench for Marmot (MLS over Nostr).
// Layering (top depends on bottom, never the reverse) is described in docs/architecture.md.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "marmot-conform",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "marmot-conform", targets: ["MarmotConformCLI"]),
        .library(name: "Nostr", targets: ["Nostr"]),
        .library(name: "MLS", targets: ["MLS"]),
        // The Swift compatibility kit: a Swift Marmot engine runs the scenarios from its own `swift test`
        // (it implements EngineInterface's ProtocolEngine and hands the kit a factory).
        .library(name: "MarmotConformanceKit", targets: ["MarmotConformanceKit", "EngineInterface"]),
        .executable(name: "mls-bench", targets: ["MLSBench"]),
        .executable(name: "marmot-fuzz", targets: ["MarmotFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    ],
    targets: [
        // System libraries (Debian libsecp256k1-dev, libsodium-dev), installed by ci/setup.
        .systemLibrary(name: "CSecp256k1", pkgConfig: "libsecp256k1", providers: [.apt(["libsecp256k1-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // zlib (Debian zlib1g-dev): gzip for large failure capsules.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Codecs with no dependency but the standard library.
        .target(name: "HexEncoding", swiftSettings: strict),
        .target(name: "Base64Encoding", swiftSettings: strict),
        .target(name: "ErrorCodes", swiftSettings: strict),
        .target(name: "TLSCodec", dependencies: ["ErrorCodes"], swiftSettings: strict),

        // Protocol layers.
        .target(
            name: "Nostr",
            dependencies: [
                "CSecp256k1", "CSodium", "Base64Encoding", "ErrorCodes", "HexEncoding", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MLS",
            dependencies: ["ErrorCodes", "TLSCodec", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),

        // Marmot MIP-00…03 codecs and rules over MLS and Nostr.
        .target(
            name: "Marmot",
            dependencies: [
                "Base64Encoding", "ErrorCodes", "MLS", "Nostr", "TLSCodec", "HexEncoding",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // Child processes (the only swift-subprocess importer): one-shot runs, line-spoken children, the live set.
        .target(name: "ProcessSupport", dependencies: [.product(name: "Subprocess", package: "swift-subprocess")], swiftSettings: strict),

        // Engines: the interface, the driver protocol both of its sides share (methods and records),
        // and the client for out-of-process drivers.
        .target(name: "EngineInterface", dependencies: ["ErrorCodes", "Nostr"], swiftSettings: strict),
        .target(
            name: "DriverProtocol", dependencies: ["EngineInterface", "Nostr", "Base64Encoding", "HexEncoding"], swiftSettings: strict
        ),
        .target(
            name: "ExternalProcessEngine",
            dependencies: ["DriverProtocol", "EngineInterface", "ErrorCodes", "Nostr", "Base64Encoding", "ProcessSupport"],
            swiftSettings: strict
        ),

        // The native Swift engine: Marmot on our MLS behind ProtocolEngine.
        .target(
            name: "NativeSwiftEngine",
            dependencies: ["EngineInterface", "Marmot", "MLS", "Nostr", "HexEncoding", "TLSCodec", "ErrorCodes"],
            swiftSettings: strict
        ),

        // The driver side of the driver protocol: serves a ProtocolEngine over stdin/stdout
        // (`marmot-conform driver swift`), the ExternalProcessEngine's peer.
        .target(
            name: "DriverService",
            dependencies: ["EngineInterface", "DriverProtocol", "Nostr", "DeterministicScheduler", "HexEncoding", "Base64Encoding"],
            swiftSettings: strict
        ),

        // The app core members run (sans-I/O apart from awaiting its engine).
        .target(name: "GroupCore", dependencies: ["EngineInterface", "ErrorCodes", "Nostr"], swiftSettings: strict),

        // Simulation.
        .target(name: "DeterministicScheduler", swiftSettings: strict),
        .target(name: "InMemoryRelay", dependencies: ["Nostr", "DeterministicScheduler", "HexEncoding"], swiftSettings: strict),
        // Serves an InMemoryRelay over WebSocket on loopback (the only swift-nio importer).
        .target(
            name: "RelayWebSocketServer",
            dependencies: [
                "InMemoryRelay", "Nostr",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // A blocking/pollable WebSocket client for loopback relays (POSIX only): the relay bench and the real lane.
        .target(name: "LoopbackWebSocket", dependencies: ["ErrorCodes"], swiftSettings: strict),
        // The real-network lane's sockets, relay processes and proxies (docs/real-network.md).
        .target(
            name: "RealNetwork", dependencies: ["InMemoryRelay", "LoopbackWebSocket", "Nostr", "RelayWebSocketServer", "ProcessSupport"],
            swiftSettings: strict),
        .target(
            name: "Simulation",
            dependencies: [
                "GroupCore", "EngineInterface", "InMemoryRelay", "DeterministicScheduler", "Nostr", "HexEncoding",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // Scenario files: YAML loading (the only Yams importer), the typed model, the verb table,
        // the JSON Schema. Knows nothing of the world, the app core or the engines.
        .target(name: "ScenarioModel", dependencies: ["ErrorCodes", .product(name: "Yams", package: "Yams")], swiftSettings: strict),
        // Scenario runs: interpreter, oracles, vectors, ledger, reports.
        .target(
            name: "ScenarioRunner",
            dependencies: [
                "ScenarioModel", "Nostr", "Simulation", "GroupCore", "EngineInterface", "InMemoryRelay",
                "DeterministicScheduler", "CZlib",
            ],
            swiftSettings: strict
        ),

        // Front door.
        .executableTarget(
            name: "MarmotConformCLI",
            dependencies: [
                "Nostr", "ScenarioModel", "ScenarioRunner", "EngineInterface", "ExternalProcessEngine", "NativeSwiftEngine",
                "DriverService", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "InMemoryRelay", "DeterministicScheduler", "ProcessSupport",
                "RelayWebSocketServer", "LoopbackWebSocket", "RealNetwork",
            ],
            swiftSettings: strict
        ),

        // The compatibility kit (library product): the runner on a caller's engine factory.
        .target(
            name: "MarmotConformanceKit",
            dependencies: ["ScenarioRunner", "ScenarioModel", "EngineInterface", "Simulation", "DeterministicScheduler", "ErrorCodes"],
            swiftSettings: strict
        ),

        // Fuzzing: the untrusted-input decoders as targets (library), and their libFuzzer entry
        // point / corpus replayer (built with -sanitize=fuzzer only by ci/fuzz).
        .target(
            name: "FuzzTargets",
            dependencies: ["DriverProtocol", "Marmot", "MLS", "NativeSwiftEngine", "Nostr", "ScenarioModel", "TLSCodec"],
            swiftSettings: strict),
        .executableTarget(name: "MarmotFuzz", dependencies: ["FuzzTargets"], swiftSettings: strict),

        // MLS timing benchmark (wall clock and system randomness are allowed in executables only).
        .executableTarget(name: "MLSBench", dependencies: ["MLS"], swiftSettings: strict),

        // Test-only helpers: vector loading, hostile-input mutators, peer scripts run in the venv (through
        // ProcessSupport's ChildProcess, swift-subprocess's one importer).
        .target(name: "ConformanceTestSupport", dependencies: ["HexEncoding", "ProcessSupport"], swiftSettings: strict),
        // Test-only: engine-agnostic member/group steps shared by the interop and native-engine tests.
        .target(
            name: "EngineTestSupport", dependencies: ["ConformanceTestSupport", "EngineInterface", "Nostr"],
            swiftSettings: strict
        ),

        .testTarget(
            name: "NostrTests",
            dependencies: ["Nostr", "HexEncoding", "ConformanceTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .testTarget(name: "TLSCodecTests", dependencies: ["TLSCodec", "ConformanceTestSupport"], swiftSettings: strict),
        .testTarget(name: "ErrorCodesTests", dependencies: ["ErrorCodes"], swiftSettings: strict),
        .testTarget(
            name: "MLSTests", dependencies: ["MLS", "ConformanceTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        .testTarget(
            name: "DeterministicSchedulerTests",
            dependencies: ["DeterministicScheduler", "ConformanceTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ExternalProcessEngineTests",
            dependencies: [
                "ExternalProcessEngine", "DriverProtocol", "ProcessSupport", "EngineInterface", "Nostr", "ConformanceTestSupport",
                "EngineTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MarmotTests",
            dependencies: ["Marmot", "MLS", "Nostr", "HexEncoding", "TLSCodec", "ConformanceTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NativeSwiftEngineTests",
            dependencies: [
                "NativeSwiftEngine", "Marmot", "MLS", "EngineInterface", "ExternalProcessEngine", "Nostr", "ConformanceTestSupport",
                "EngineTestSupport", "HexEncoding", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DriverServiceTests",
            dependencies: [
                "DriverService", "NativeSwiftEngine", "EngineInterface", "Nostr", "DeterministicScheduler", "Base64Encoding",
                "ConformanceTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "MarmotConformCLITests", dependencies: ["ConformanceTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ScenarioRunnerTests",
            dependencies: [
                "ScenarioModel", "ScenarioRunner", "ConformanceTestSupport", "NativeSwiftEngine", "GroupCore", "Simulation",
                "EngineInterface", "Nostr",
                "EngineTestSupport", "ExternalProcessEngine", "DeterministicScheduler",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "InMemoryRelayTests",
            dependencies: ["InMemoryRelay", "Nostr", "ConformanceTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MarmotConformanceKitTests",
            dependencies: ["MarmotConformanceKit", "EngineInterface", "NativeSwiftEngine"],
            swiftSettings: strict
        ),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"], swiftSettings: strict),
        .testTarget(
            name: "RelayWebSocketServerTests",
            dependencies: [
                "RelayWebSocketServer", "InMemoryRelay", "Nostr", "DeterministicScheduler",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RealNetworkTests",
            dependencies: [
                "RealNetwork", "RelayWebSocketServer", "ScenarioRunner", "ScenarioModel", "NativeSwiftEngine", "GroupCore", "InMemoryRelay",
                "DeterministicScheduler", "ConformanceTestSupport", "LoopbackWebSocket", "Nostr",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GroupCoreTests",
            dependencies: [
                "GroupCore", "Simulation", "EngineInterface", "InMemoryRelay", "DeterministicScheduler", "Nostr",
                "ConformanceTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SimulationTests",
            dependencies: [
                "Simulation", "GroupCore", "EngineInterface", "ExternalProcessEngine", "NativeSwiftEngine", "InMemoryRelay",
                "DeterministicScheduler", "Nostr", "ConformanceTestSupport",
            ],
            swiftSettings: strict
        ),
    ]
)
