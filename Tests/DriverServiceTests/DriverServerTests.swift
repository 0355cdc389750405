import DeterministicScheduler
import EngineInterface
import NativeSwiftEngine
import Nostr
import Testing

@testable import DriverService

#if canImport(Glibc)
import Glibc
#endif

/// The driver side of the protocol in process: our engine behind `DriverServer`, on the world of
/// each request (docs/driver-protocol.md, "Determinism").
@Suite struct DriverServerTests {
    static func server() async throws -> DriverServer {
        let identity = try await NativeSwiftEngine(generator: SeededGenerator(seed: 0), clock: { 0 }).capabilities()
        return DriverServer(identity: identity, clientTag: "test") { world in
            NativeSwiftEngine(generator: world.generator, clock: world.clock)
        }
    }

    static let key = String(repeating: "07", count: 32)
    static let pubkey = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"

    static func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func keyPackage(_ server: DriverServer, seed: String, time: Int = 1_700_000_000) async throws -> [String: JSONValue] {
        let world = #"{"unix_time":\#(time),"seed":"\#(seed)"}"#
        _ = await server.respond(
            to: line(#"{"id":1,"method":"create_instance","params":{"instance":"a","encryption_key":"\#(key)"},"world":\#(world)}"#))
        let reply = await server.respond(
            to: line(
                #"{"id":2,"method":"create_key_package","params":{"instance":"a","public_key":"\#(pubkey)","relays":["wss://r.test"]},"world":\#(world)}"#
            ))
        return try #require(try JSONValue(parsing: reply).object?["result"]?.object, "\(reply)")
    }

    /// Same requests, same bytes, in two servers; another seed or instant, other bytes.
    @Test func theRequestsWorldDecidesTheBytes() async throws {
        let seed = String(repeating: "ab", count: 32)
        let first = try await Self.keyPackage(try await Self.server(), seed: seed)
        let again = try await Self.keyPackage(try await Self.server(), seed: seed)
        let otherSeed = try await Self.keyPackage(try await Self.server(), seed: String(repeating: "cd", count: 32))
        #expect(first["content"] != nil && first == again)
        #expect(first["content"] != otherSeed["content"])
    }

    @Test(arguments: [
        ("{not json", #"{"error":{"code":"bad_request""#, "null"),
        (#"{"id":"7","method":"hello"}"#, #""code":"bad_request""#, "null"),
        (#"{"id":7,"method":"nope","world":{"unix_time":1}}"#, #""code":"unknown_method""#, "7"),
        (#"{"id":7,"method":"groups","params":{"instance":"x"}}"#, "needs `world`", "7"),
        (#"{"id":7,"method":"groups","params":{"instance":"x"},"world":{"unix_time":1,"seed":"00"}}"#, "32 bytes hex", "7"),
        (#"{"id":7,"method":"groups","params":{"instance":"x"},"world":{"unix_time":1}}"#, #""code":"unknown_instance""#, "7"),
    ])
    func invalidRequestsAreRefusedUnderTheRightID(request: String, expected: String, id: String) async throws {
        let reply = await (try await Self.server()).respond(to: Self.line(request))
        #expect(reply.contains(expected), "\(reply)")
        #expect(try JSONValue(parsing: reply).object?["id"]?.serialized() == id, "\(reply)")
    }

    /// An instance with a `directory` (a member that restarts) keeps its state there: closed and
    /// created again on the same directory, it still holds the group it made (its state file was
    /// read: a fresh engine holds none). A server without `reopen` refuses the directory rather than
    /// come back empty.
    @Test func directoryInstancesReopenTheirStateOrAreRefused() async throws {
        let directory = "/tmp/driver-server-test-\(getpid())"
        defer {
            _ = unlink(directory + "/swift-engine.state")
            _ = rmdir(directory)
        }
        _ = mkdir(directory, 0o700)
        let identity = try await NativeSwiftEngine(generator: SeededGenerator(seed: 0), clock: { 0 }).capabilities()
        let server = DriverServer(
            identity: identity, clientTag: "test",
            factory: { world in
                NativeSwiftEngine(generator: world.generator, clock: world.clock)
            },
            reopen: { world, directory throws(EngineError) in
                try NativeSwiftEngine(generator: world.generator, clock: world.clock, stateFile: directory + "/swift-engine.state")
            })
        let world = #"{"unix_time":1700000000,"seed":"\#(String(repeating: "ab", count: 32))"}"#
        func create(_ name: String) async -> String {
            await server.respond(
                to: Self.line(
                    #"{"id":1,"method":"create_instance","params":{"instance":"\#(name)","encryption_key":"\#(Self.key)","directory":"\#(directory)"},"world":\#(world)}"#
                ))
        }
        #expect(await create("a").contains(#""result""#))
        let group = #""creator":"\#(Self.pubkey)","name":"g","description":"","admins":["\#(Self.pubkey)"],"relays":["wss://r.test"]"#
        let made = await server.respond(
            to: Self.line(
                #"{"id":2,"method":"create_group","params":{"instance":"a",\#(group),"key_package_events":[]},"world":\#(world)}"#))
        let closed = await server.respond(to: Self.line(#"{"id":3,"method":"close_instance","params":{"instance":"a"},"world":\#(world)}"#))
        #expect(closed.contains(#""result""#), "\(closed)")
        #expect(await create("b").contains(#""result""#))
        let groups = await server.respond(
            to: Self.line(#"{"id":4,"method":"groups","params":{"instance":"b"},"world":{"unix_time":1700000000}}"#))
        if made.contains(#""result""#) {
            #expect(groups.contains(#""name":"g""#), "\(groups)")
        } else {
            Issue.record("create_group failed: \(made)")
        }

        let plain = try await Self.server()
        let refused = await plain.respond(
            to: Self.line(
                #"{"id":1,"method":"create_instance","params":{"instance":"a","encryption_key":"\#(Self.key)","directory":"\#(directory)"},"world":\#(world)}"#
            ))
        #expect(refused.contains(#""code":"bad_request""#), "\(refused)")
    }

    /// `hello` offers the world and never the hostile capability (forging is no protocol method).
    @Test func helloOffersTheWorldButNotForging() async throws {
        let identity = EngineCapabilities(name: "n", version: "v", capabilities: [.createGroup])
        let plain = DriverServer(identity: identity, clientTag: "t") { _ in fatalError("no instance is made") }
        let reply = await plain.respond(to: Self.line(#"{"id":1,"method":"hello"}"#))
        #expect(reply.contains(#"["group.create","world.seeded_random","world.virtual_clock"]"#), "\(reply)")
    }

    /// A line longer than the limit is skipped whole and answered once; the next line is read.
    @Test func anOversizedLineIsSkippedAndAnswered() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let text = String(repeating: "x", count: 30_000) + "\n{\"id\":1}\n"
        let written = Array(text.utf8).withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        close(descriptors[1])
        #expect(written == text.utf8.count)
        var reader = LineReader(fileDescriptor: descriptors[0], maximumLine: 1_000)
        guard case .oversized? = reader.next() else {
            Issue.record("the long line was not refused")
            return
        }
        guard case .line(let next)? = reader.next() else {
            Issue.record("the next line was lost")
            return
        }
        #expect(String(decoding: next, as: UTF8.self) == "{\"id\":1}")
        #expect(reader.next() == nil)
        close(descriptors[0])
    }
}
