// `marmot-conform bench engines`: our engine and MDK 0.8.0 timed on the same operations through the
// same engine interface, in one run (docs/benchmarks.md). Figures are printed, never judged.
import ArgumentParser
import DeterministicScheduler
import EngineInterface
import ExternalProcessEngine
import Foundation
import NativeSwiftEngine

extension MarmotConform {
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Benchmarks (build with -c release).", subcommands: [EnginesBench.self])
    }

    struct EnginesBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "engines",
            abstract: "Time our engine and MDK on the same operations through the engine interface, and print swift/MDK.",
            discussion: """
                Operations, in order: create a group of --members (the creator invites the others), one invitee \
                processes and accepts its welcome, the creator adds --add members (commit, merge, the joiner \
                processes it), removes --remove, sends --messages application messages, which the joiner receives. \
                MDK runs through its driver on the world shim, on the same fixed world clock as our engine.
                """)

        @Option(help: "Members of the created group, creator included.") var members = 100
        @Option(help: "Members added in one commit.") var add = 10
        @Option(help: "Members removed in one commit.") var remove = 10
        @Option(help: "Application messages sent, then received by the joiner.") var messages = 1000
        @Option(help: "Seed of identities and engine randomness.") var seed: UInt64 = 1
        @Flag(help: "Only our engine (no MDK, no ratio).") var swiftOnly = false
        @OptionGroup var options: RunnerOptions

        /// Unix time of the world clock both engines read (fixed: the world's virtual zero).
        static let worldTime: UInt64 = 1_700_000_000

        func validate() throws {
            guard members >= 2 + remove, add >= 1, remove >= 1, messages >= 1 else {
                throw ValidationError("need --members ≥ --remove + 2 and --add, --remove, --messages ≥ 1")
            }
        }

        var sizes: EngineBenchSizes { EngineBenchSizes(members: members, added: add, removed: remove, messages: messages) }

        func bench() -> EngineBench {
            EngineBench(sizes: sizes, now: Self.worldTime, keys: BenchKeys(generator: SeededGenerator(seed: seed).child("keys")))
        }

        func run() async throws {
            let (repo, _) = try options.locate()
            try repo.enter()
            Console.line(EngineBenchReport.header(sizes, seed: seed, time: Self.worldTime))
            var swiftBench = bench()
            let swift = try await swiftBench.measure(Self.swiftEngine(seed: seed))
            guard !swiftOnly else { return Console.line(EngineBenchReport.table(swift: swift, mdk: nil, sizes: sizes)) }
            let mdk = try await measureMDK(try DriverCommand.mdk(root: repo.root))
            Console.line(EngineBenchReport.table(swift: swift, mdk: mdk, sizes: sizes))
        }

        static func swiftEngine(seed: UInt64) -> EngineBench.MakeEngine {
            let clock: @Sendable () -> UInt64 = { worldTime }
            return { label in NativeSwiftEngine(generator: SeededGenerator(seed: seed).child(label), clock: clock) }
        }

        func measureMDK(_ command: DriverCommand) async throws -> EngineBenchFigures {
            let process = await DriverProcess.launch(
                executable: command.executable, arguments: command.arguments, environment: command.environment,
                deadline: options.driverTimeout.deadline)
            do {
                try await process.requireWorld()
                var mdkBench = bench()
                let figures = try await mdkBench.measure(Self.mdkEngine(process, seed: seed))
                await process.shutdown()
                return figures
            } catch {
                await process.shutdown()
                throw error
            }
        }

        /// MDK instances through the driver, each on the world clock and its own seeded stream.
        static func mdkEngine(_ process: DriverProcess, seed: UInt64) -> EngineBench.MakeEngine {
            let clock: @Sendable () -> UInt64 = { worldTime }
            return { label in
                var keys = BenchKeys(generator: SeededGenerator(seed: seed).child("storage-\(label)"))
                return try await process.makeEngine(
                    instance: label, encryptionKey: keys.storageKey(),
                    world: WorldFeed(clock: clock, generator: SeededGenerator(seed: seed).child(label)))
            }
        }
    }
}

enum EngineBenchReport {
    static func header(_ sizes: EngineBenchSizes, seed: UInt64, time: UInt64) -> String {
        "bench engines: group of \(sizes.members), add \(sizes.added), remove \(sizes.removed), \(sizes.messages) messages "
            + "(seed \(seed), world clock \(time)); wall-clock seconds"
    }

    static func table(swift: EngineBenchFigures, mdk: EngineBenchFigures?, sizes: EngineBenchSizes) -> String {
        let names = EngineBenchFigures.names.map { $0.replacingOccurrences(of: "N members", with: "\(sizes.members) members") }
        var lines = [pad("operation", 52) + pad("swift", 11) + (mdk == nil ? "" : pad("mdk", 11) + "swift/mdk")]
        for (index, name) in names.enumerated() {
            var line = pad(name, 52) + pad(seconds(swift.seconds[index]), 11)
            if let mdk {
                line += pad(seconds(mdk.seconds[index]), 11) + String(format: "%.3f×", swift.seconds[index] / max(mdk.seconds[index], 1e-9))
            }
            lines.append(line)
        }
        var setup = pad("(setup: engines, key packages; not compared)", 52) + pad(seconds(swift.setup), 11)
        if let mdk { setup += seconds(mdk.setup) }
        lines.append(setup)
        return lines.joined(separator: "\n")
    }

    static func seconds(_ value: Double) -> String { String(format: "%.4f", value) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
