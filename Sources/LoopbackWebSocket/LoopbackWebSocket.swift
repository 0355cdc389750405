// A small WebSocket client over a loopback TCP socket (RFC 6455, client side): the opening
// handshake, masked text frames out, text frames in (fragments joined, pings answered). For the
// relay abuse bench (blocking reads) and the real-network lane (many sockets polled at once, reads
// that never block). It talks to relays this process started on 127.0.0.1 and nothing else; it still
// treats their bytes as untrusted: every read is bounded in time, frames and messages in size, and
// anything unexpected is a typed error, never a trap or a hang.
import ErrorCodes

#if canImport(Glibc)
import Glibc
#endif

/// Why a WebSocket connection failed.
package typealias WebSocketError = ModuleError<WebSocketErrorDomain>

/// Types the codes of `WebSocketError`.
package enum WebSocketErrorDomain {}

extension WebSocketError.Code {
    /// The socket could not be made or connected.
    package static let connect = Self("websocket.connect")
    /// The server did not upgrade the connection.
    package static let handshake = Self("websocket.handshake")
    /// The connection ended (close frame, FIN, reset).
    package static let closed = Self("websocket.closed")
    /// A frame or message is larger than the client accepts.
    package static let tooLarge = Self("websocket.tooLarge")
    /// A frame breaks RFC 6455 for a client (masked, binary, bad opcode, bad UTF-8 length).
    package static let protocolViolation = Self("websocket.protocol")
    /// A blocking read or write did not finish within its bound.
    package static let timeout = Self("websocket.timeout")
    /// A system call failed.
    package static let io = Self("websocket.io")
}

/// One client connection to ws://127.0.0.1:`port`/.
package final class LoopbackWebSocket {
    /// The largest message read (a stored-event answer is a few hundred bytes; relays cap events at 64 KiB).
    package static let maximumMessageBytes = 1 << 20
    /// The socket, for `poll(2)` over many connections.
    package let descriptor: Int32
    /// Bytes read and not yet parsed into frames.
    private var buffer: [UInt8] = []
    private var start = 0
    /// A fragmented message being joined.
    private var fragments: [UInt8]?
    private var ended = false
    /// Bytes and frames each way, for the lane's figures.
    package private(set) var bytesSent = 0
    package private(set) var bytesReceived = 0

    /// Connects to 127.0.0.1:`port` and upgrades to WebSocket; blocking reads and writes wait at
    /// most `timeout` seconds.
    package init(port: Int, timeout: Int = 10) throws(WebSocketError) {
        guard (1...65_535).contains(port) else { throw WebSocketError(.connect, "port \(port) out of range") }
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw WebSocketError(.connect, "socket: errno \(errno)") }
        var deadline = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw WebSocketError(.connect, "connect to 127.0.0.1:\(port): errno \(code)")
        }
        do throws(WebSocketError) {
            let request =
                "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: bWFybW90LWNvbmZvcm0tYmVuY2g=\r\nSec-WebSocket-Version: 13\r\n\r\n"
            try write(Array(request.utf8))
            // The answer's head ends at the first empty line; what follows it is already WebSocket.
            while true {
                if let end = headEnd() {
                    let status = String(decoding: buffer[0..<min(12, end)], as: UTF8.self)
                    guard status.hasPrefix("HTTP/1.1 101") else { throw WebSocketError(.handshake, "no upgrade: \(status)") }
                    start = end
                    break
                }
                guard buffer.count < 8_192 else { throw WebSocketError(.handshake, "handshake answer too long") }
                try fill(blocking: true)
            }
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Sends one masked text frame (RFC 6455 §5.2; a zero masking key leaves the payload as it is).
    package func send(_ text: String) throws(WebSocketError) {
        try sendFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// The next text message, waiting for it (bounded by the socket's timeout).
    package func receive() throws(WebSocketError) -> String {
        while true {
            if let message = try nextMessage() { return message }
            try fill(blocking: true)
        }
    }

    /// Every whole text message the socket holds now, without waiting. An ended connection throws
    /// once what came before its end has been returned.
    package func readAvailable() throws(WebSocketError) -> [String] {
        var messages: [String] = []
        // Bounded: each fill reads at most 64 KiB, and the loop stops when a read would block.
        for _ in 0..<1_024 {
            while let message = try nextMessage() { messages.append(message) }
            do {
                guard try fill(blocking: false) else { break }
            } catch {
                if messages.isEmpty { throw error }
                // Hand over what came first; the error comes again on the next read.
                return messages
            }
        }
        return messages
    }

    /// Which of `sockets` have bytes to read (or an ended connection), waiting at most
    /// `milliseconds` for the first; indices in `sockets`.
    package static func readable(_ sockets: [LoopbackWebSocket], waitingAtMost milliseconds: Int) -> [Int] {
        // Bytes already buffered are a partial frame (`readAvailable` takes every whole one): only
        // the socket can make them whole, so it is what is polled.
        var descriptors = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        let count = poll(&descriptors, nfds_t(descriptors.count), Int32(max(0, min(milliseconds, 60_000))))
        guard count > 0 else { return [] }
        return descriptors.indices.filter { descriptors[$0].revents != 0 }
    }

    // MARK: - Frames

    private func sendFrame(opcode: UInt8, payload: [UInt8]) throws(WebSocketError) {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        frame += [0, 0, 0, 0] + payload
        try write(frame)
    }

    /// The next whole message in the buffer, nil when more bytes are needed. Control frames are
    /// handled on the way (a ping is answered, a close ends the connection).
    private func nextMessage() throws(WebSocketError) -> String? {
        while true {
            guard let (opcode, final, payload) = try nextFrame() else { return nil }
            switch opcode {
            case 0x1, 0x0:
                if opcode == 0x1, fragments != nil { throw WebSocketError(.protocolViolation, "a new message inside a fragmented one") }
                if opcode == 0x0, fragments == nil { throw WebSocketError(.protocolViolation, "a continuation with no message") }
                var joined = (fragments ?? []) + payload
                guard joined.count <= Self.maximumMessageBytes else {
                    throw WebSocketError(.tooLarge, "message over \(joined.count) bytes")
                }
                if !final {
                    fragments = joined
                    continue
                }
                fragments = nil
                defer { joined = [] }
                return String(decoding: joined, as: UTF8.self)
            case 0x8:
                ended = true
                throw WebSocketError(.closed, "close frame from the server")
            case 0x9:
                try sendFrame(opcode: 0xA, payload: payload)
            case 0xA:
                continue
            default:
                throw WebSocketError(.protocolViolation, "frame with opcode \(opcode)")
            }
        }
    }

    /// The next whole frame in the buffer, nil when it is not all there yet.
    private func nextFrame() throws(WebSocketError) -> (opcode: UInt8, final: Bool, payload: [UInt8])? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        guard second & 0x80 == 0 else { throw WebSocketError(.protocolViolation, "a masked frame from the server") }
        var header = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 { value = value << 8 | UInt64(buffer[start + 2 + index]) }
            guard value <= UInt64(Self.maximumMessageBytes) else { throw WebSocketError(.tooLarge, "frame of \(value) bytes") }
            length = Int(value)
            header = 10
        }
        guard length <= Self.maximumMessageBytes else { throw WebSocketError(.tooLarge, "frame of \(length) bytes") }
        guard available >= header + length else { return nil }
        let payload = Array(buffer[(start + header)..<(start + header + length)])
        start += header + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return (first & 0x0F, first & 0x80 != 0, payload)
    }

    // MARK: - Bytes

    private func write(_ bytes: [UInt8]) throws(WebSocketError) {
        guard !ended else { throw WebSocketError(.closed, "the connection has ended") }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else {
                let code = errno
                ended = true
                throw code == EAGAIN || code == EWOULDBLOCK
                    ? WebSocketError(.timeout, "send did not finish in time") : WebSocketError(.closed, "send: errno \(code)")
            }
            offset += sent
        }
        bytesSent += bytes.count
    }

    /// Reads what the socket has (at most 64 KiB); false when a non-blocking read found nothing.
    @discardableResult
    private func fill(blocking: Bool) throws(WebSocketError) -> Bool {
        guard !ended else { throw WebSocketError(.closed, "the connection has ended") }
        // What a slow reader leaves unparsed stays bounded: one message and its header.
        guard buffer.count - start <= Self.maximumMessageBytes + 16 else { throw WebSocketError(.tooLarge, "unread bytes over the bound") }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, blocking ? 0 : Int32(MSG_DONTWAIT)) }
        if count > 0 {
            buffer += chunk[..<count]
            bytesReceived += count
            return true
        }
        let code = errno
        if count < 0, code == EAGAIN || code == EWOULDBLOCK {
            guard blocking else { return false }
            throw WebSocketError(.timeout, "no answer in time")
        }
        ended = true
        throw WebSocketError(.closed, count == 0 ? "the server closed the connection" : "recv: errno \(code)")
    }

    /// Where the HTTP answer's head ends (after CR LF CR LF), if it is all in the buffer.
    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
