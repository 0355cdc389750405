// marmot-fuzz: built by ci/fuzz with -D FUZZING and -sanitize=fuzzer, it hands the target named in
// MARMOT_FUZZ_TARGET to libFuzzer's driver (`LLVMFuzzerRunDriver`, so that SwiftPM's own entry
// point stays ours); in a normal build it lists the targets and replays files through one (to
// re-run a crash the fuzzer saved, e.g. under a debugger).
import Foundation
import FuzzTargets

#if FUZZING
/// libFuzzer's driver: parses libFuzzer's flags from argv and calls `callback` once per input.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Set once before the driver starts; read for every input.
nonisolated(unsafe) private var selected: FuzzTarget?

private func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = selected?.run(input)
    return 0
}
#endif

@main
struct MarmotFuzz {
    static func main() {
        #if FUZZING
        let name = ProcessInfo.processInfo.environment["MARMOT_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget.named(name) else {
            fail("set MARMOT_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))", status: 2)
        }
        selected = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
        #else
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first, command != "list" else {
            for target in FuzzTarget.all { print("\(target.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(target.summary)") }
            return
        }
        guard command == "replay", arguments.count >= 3, let target = FuzzTarget.named(arguments[1]) else {
            fail("usage: marmot-fuzz list | marmot-fuzz replay TARGET FILE...", status: 2)
        }
        for path in arguments.dropFirst(2) {
            guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)", status: 1) }
            let decoded = target.run(Array(data))
            print("\(target.name): \(path) (\(data.count) bytes): \(decoded ? "decoded" : "refused with a typed error")")
        }
        #endif
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("marmot-fuzz: \(message)\n".utf8))
        exit(status)
    }
}
