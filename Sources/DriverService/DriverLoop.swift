import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The driver's process side: request lines from stdin, response lines to stdout (flushed one by
/// one), until stdin closes; then exit status 0. Work per line is bounded: a line longer than
/// ``maximumLine`` is discarded as it streams in and answered with `bad_request`.
package enum DriverLoop {
    /// 64 MiB: far above the largest request the gate sends (a 150-member `create_group`).
    package static let maximumLine = 64 << 20

    package static func serve(_ server: DriverServer, maximumLine: Int = maximumLine) async {
        signal(SIGPIPE, SIG_IGN)
        watchParent()
        var reader = LineReader(fileDescriptor: 0, maximumLine: maximumLine)
        while let line = reader.next() {
            let response: String
            switch line {
            case .line(let bytes):
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                response = await server.respond(to: bytes)
            case .oversized:
                response = DriverServer.oversizedLine(limit: maximumLine)
            }
            guard emit(response + "\n") else { return }
        }
    }

    /// Writes all of `text` to stdout; false when stdout is gone (the client closed it).
    static func emit(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// Exits when the client named in `MARMOT_DRIVER_PARENT_PID` is gone (docs/driver-protocol.md,
    /// "Transport"): a driver must not outlive its client.
    static func watchParent() {
        guard let text = getenv("MARMOT_DRIVER_PARENT_PID").map({ String(cString: $0) }), let parent = pid_t(text) else { return }
        DispatchQueue.global().async {
            while getppid() == parent { usleep(500_000) }
            exit(0)
        }
    }
}

/// Lines of a file descriptor, each at most `maximumLine` bytes (longer ones are skipped whole).
struct LineReader {
    enum Item: Equatable {
        case line([UInt8])
        case oversized
    }

    let fileDescriptor: Int32
    let maximumLine: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline resumes (bytes before it hold none).
    private var scanned = 0
    private var skipping = false
    private var finished = false

    init(fileDescriptor: Int32, maximumLine: Int) {
        self.fileDescriptor = fileDescriptor
        self.maximumLine = maximumLine
    }

    mutating func next() -> Item? {
        while true {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                scanned = start
                if skipping || line.count > maximumLine {
                    skipping = false
                    return .oversized
                }
                return .line(line)
            }
            if buffer.count - start > maximumLine {
                // Drop what we have of the line; answer once its end arrives.
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            scanned = buffer.count
            if finished {
                guard start < buffer.count, !skipping else { return nil }
                defer { start = buffer.count }
                return .line(Array(buffer[start...]))
            }
            if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                finished = true
            } else {
                buffer += chunk[..<count]
            }
        }
    }
}
