import Base64Encoding
import ConformanceTestSupport
import EngineInterface
import Foundation
import Nostr
import Testing

@testable import DriverService

/// Group images through our driver service: what a client sends reaches the engine, and what is
/// malformed is refused as `bad_request`, never a crash.
@Suite struct GroupImageServiceTests {
    static let world = #"{"unix_time":1700000000,"seed":"\#(String(repeating: "ab", count: 32))"}"#

    static func request(_ id: Int, _ method: String, _ params: String) -> [UInt8] {
        DriverServerTests.line(#"{"id":\#(id),"method":"\#(method)","params":{"instance":"a",\#(params)},"world":\#(world)}"#)
    }

    static func server() async throws -> DriverServer {
        let server = try await DriverServerTests.server()
        _ = await server.respond(
            to: DriverServerTests.line(
                #"{"id":1,"method":"create_instance","params":{"instance":"a","encryption_key":"\#(DriverServerTests.key)"},"world":\#(world)}"#
            ))
        return server
    }

    @Test func aPreparedImageDecryptsBackThroughTheProtocol() async throws {
        let server = try await Self.server()
        let png = [UInt8](try Data(contentsOf: Vectors.repositoryRoot.appendingPathComponent("scenarios/assets/avatar.png")))
        let prepared = try JSONValue(
            parsing: await server.respond(
                to: Self.request(
                    2, "prepare_group_image", #""image_data":"\#(Base64.encode(png))","mime_type":"image/png""#)))
        let result = try #require(prepared.object?["result"]?.object, "\(prepared)")
        let blob = try #require(result["encrypted_data"]?.string)
        let image = try #require(result["image"]?.serialized())
        let opened = try JSONValue(
            parsing: await server.respond(
                to: Self.request(
                    3, "decrypt_group_image", #""encrypted_data":"\#(blob)","image":\#(image)"#)))
        #expect(opened.object?["result"]?.object?["image_data"]?.string == Base64.encode(png), "\(opened)")
    }

    static let image =
        #"{"hash":"\#(String(repeating: "ab", count: 32))","key":"\#(String(repeating: "cd", count: 32))","nonce":"\#(String(repeating: "ef", count: 12))"}"#

    @Test(arguments: [
        ("prepare_group_image", #""image_data":"!!","mime_type":"image/png""#, "bad_request"),
        ("prepare_group_image", #""image_data":"AAAA""#, "bad_request"),
        ("prepare_group_image", #""image_data":"AAAA","mime_type":"image/png""#, "invalid_image"),
        ("decrypt_group_image", #""encrypted_data":"AAAA","image":{"hash":"ab","key":"cd","nonce":"ef"}"#, "bad_request"),
        ("decrypt_group_image", #""encrypted_data":"AAAA""#, "bad_request"),
        ("decrypt_group_image", #""encrypted_data":"AAAA","image":\#(image)"#, "image_hash_mismatch"),
        ("update_group_data", #""mls_group_id":"00","changes":{"image":{"hash":"ab"}}"#, "bad_request"),
    ])
    func malformedOrWrongImagesAreRefusedWithTheirCode(method: String, params: String, code: String) async throws {
        let reply = await (try await Self.server()).respond(to: Self.request(2, method, params))
        #expect(try JSONValue(parsing: reply).object?["error"]?.object?["code"]?.string == code, "\(reply)")
    }
}
