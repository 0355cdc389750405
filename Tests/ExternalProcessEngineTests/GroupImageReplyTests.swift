import EngineInterface
import ExternalProcessEngine
import Testing

/// Image fields in a driver's replies come from another program: decoded strictly, never trusted.
@Suite struct GroupImageReplyTests {
    static let hash = String(repeating: "ab", count: 32), key = String(repeating: "cd", count: 32),
        nonce = String(repeating: "ef", count: 12)

    static func group(_ image: String) -> String {
        #"{"group":{"mls_group_id":"00","nostr_group_id":"11","name":"n","description":"","admin_pubkeys":[],"epoch":1,"state":"active"\#(image)}}"#
    }

    @Test func aGroupNamesItsImageOnlyWhenTheHashIsThere() async throws {
        for (fields, expected) in [
            (
                #","image_hash":"\#(Self.hash)","image_key":"\#(Self.key)","image_nonce":"\#(Self.nonce)""#,
                GroupImage(
                    hash: [UInt8](repeating: 0xab, count: 32), key: [UInt8](repeating: 0xcd, count: 32),
                    nonce: [UInt8](repeating: 0xef, count: 12))
            ),
            (#","image_hash":null,"image_key":null,"image_nonce":null"#, nil),
            ("", nil),
        ] {
            let (driver, engine) = try await StandInDriver.engine(answering: Self.group(fields))
            #expect(try await engine.group(MLSGroupID(hex: "00")).image == expected)
            await driver.shutdown()
        }
    }

    @Test(arguments: [
        group(#","image_hash":"\#(hash)","image_key":"\#(key)","image_nonce":"abcd""#),  // short nonce
        group(#","image_hash":"\#(hash)","image_key":null,"image_nonce":"\#(nonce)""#),  // hash without key
        group(#","image_hash":"zz","image_key":"\#(key)","image_nonce":"\#(nonce)""#),  // not hex
        group(#","image_hash":7"#),
    ])
    func malformedImageFieldsAreMalformedResponses(_ result: String) async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: result)
        await #expect(throws: EngineError(.malformedResponse, "")) { try await engine.group(MLSGroupID(hex: "00")) }
        await driver.shutdown()
    }

    @Test(arguments: [
        #"{"encrypted_data":"not base64!","image":{"hash":"\#(hash)","key":"\#(key)","nonce":"\#(nonce)"}}"#,
        #"{"encrypted_data":"AAAA","image":{"hash":"\#(hash)","key":"\#(key)"}}"#,
        #"{"encrypted_data":"AAAA","image":{"hash":"abcd","key":"\#(key)","nonce":"\#(nonce)"}}"#,
        #"{"image":{"hash":"\#(hash)","key":"\#(key)","nonce":"\#(nonce)"}}"#,
    ])
    func malformedPreparedImagesAreMalformedResponses(_ result: String) async throws {
        let (driver, engine) = try await StandInDriver.engine(answering: result)
        await #expect(throws: EngineError(.malformedResponse, "")) { try await engine.prepareGroupImage([1], mimeType: "image/png") }
        await driver.shutdown()
    }

    @Test func aPreparedImageDecodes() async throws {
        let (driver, engine) = try await StandInDriver.engine(
            answering: #"{"encrypted_data":"AQID","image":{"hash":"\#(Self.hash)","key":"\#(Self.key)","nonce":"\#(Self.nonce)"}}"#)
        let prepared = try await engine.prepareGroupImage([1], mimeType: "image/png")
        #expect(prepared.encrypted == [1, 2, 3])
        #expect(prepared.image.nonce == [UInt8](repeating: 0xef, count: 12))
        await driver.shutdown()
    }
}
