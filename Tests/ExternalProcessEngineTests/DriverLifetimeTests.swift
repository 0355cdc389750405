import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The MDK driver never outlives the process that started it, even when that process dies without
/// closing the driver's stdin (SIGKILL) and even while the pipe stays open elsewhere.
@Suite(.enabled(if: MDKDriver.isAvailable, "no .venv with mdk-python: run ci/setup"))
struct DriverLifetimeTests {
    /// Whether `pid` still runs (a zombie waiting to be reaped counts as gone).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    @Test func driverExitsWhenItsParentIsKilled() async throws {
        let python = try #require(PythonVenv.interpreter).path
        // The parent: a shell that starts the driver on a copy of its own stdin (so our pipe, not the
        // parent, keeps it open), prints the driver's pid, then becomes `sleep`.
        let script = """
            exec 3<&0
            MARMOT_DRIVER_PARENT_PID=$$ "\(python)" "\(MDKDriver.script)" <&3 3<&- &
            echo $!
            exec sleep 100000
            """
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = ["-c", script]
        let input = Pipe()
        let output = Pipe()
        parent.standardInput = input
        parent.standardOutput = output
        try parent.run()
        let reader = output.fileHandleForReading
        let pidLine = try #require(Self.readLine(reader))
        let driver = try #require(pid_t(pidLine.trimmingCharacters(in: .whitespaces)))
        // Wait until the driver answers, so it is past start-up when its parent dies.
        input.fileHandleForWriting.write(Data(#"{"id":1,"method":"hello"}"#.utf8 + [0x0A]))
        let hello = try #require(Self.readLine(reader))
        #expect(hello.contains(#""name":"mdk""#), "\(hello)")
        #expect(Self.isRunning(driver))

        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        // The driver polls for its parent twice a second; allow it ample time on a loaded machine.
        var waited = 0
        while Self.isRunning(driver), waited < 1200 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(!Self.isRunning(driver), "the driver outlived its killed parent")
        if Self.isRunning(driver) { kill(driver, SIGKILL) }
        try? input.fileHandleForWriting.close()
    }

    /// One line from `handle`, read byte by byte so nothing past the newline is consumed.
    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = try? handle.read(upToCount: 1), let first = byte.first else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if first == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}
