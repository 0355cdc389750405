// A minimal blocking WebSocket client over a loopback TCP socket, for the relay abuse bench: the
// RFC 6455 opening handshake, masked text frames out, unmasked text frames in. It trusts its peer
// (our own server on 127.0.0.1) only as far as a bench must: every read has a deadline, frame
// lengths are bounded, and anything unexpected is an error, never a hang.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

final class LoopbackWebSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The largest frame read (a stored-event answer is a few hundred bytes).
    static let maximumFrameBytes = 1 << 20
    private let socketDescriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` and upgrades to WebSocket; reads wait at most `timeout` seconds.
    init(port: Int, timeout: Int = 10) throws {
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var deadline = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(socketDescriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socketDescriptor)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
        let request =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: bWFybW90LWNvbmZvcm0tYmVuY2g=\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try write(Array(request.utf8))
        var header: [UInt8] = []
        while !header.ends(with: [13, 10, 13, 10]) {
            guard header.count < 4096 else { throw Failure(description: "handshake answer too long") }
            header.append(try readByte())
        }
        let status = String(decoding: header.prefix(12), as: UTF8.self)
        guard status.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "no upgrade: \(status)") }
    }

    deinit { close(socketDescriptor) }

    /// Sends one masked text frame (RFC 6455 §5.2; a zero masking key leaves the payload as it is).
    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        frame += [0, 0, 0, 0] + payload
        try write(frame)
    }

    /// The next text frame's payload.
    func receive() throws -> String {
        let first = try readByte()
        let second = try readByte()
        guard first & 0x0F == 0x1 else { throw Failure(description: "frame with opcode \(first & 0x0F), not text") }
        var length = Int(second & 0x7F)
        if length == 126 {
            length = (Int(try readByte()) << 8) | Int(try readByte())
        } else if length == 127 {
            length = 0
            for _ in 0..<8 { length = (length << 8) | Int(try readByte()) }
        }
        guard length <= Self.maximumFrameBytes else { throw Failure(description: "frame of \(length) bytes") }
        var payload: [UInt8] = []
        payload.reserveCapacity(length)
        for _ in 0..<length { payload.append(try readByte()) }
        return String(decoding: payload, as: UTF8.self)
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    private func readByte() throws -> UInt8 {
        if buffer.isEmpty {
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: count == 0 ? "connection closed" : "recv: errno \(errno)") }
            buffer = Array(chunk[..<count].reversed())
        }
        return buffer.removeLast()
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
