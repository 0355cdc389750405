import EngineInterface
import Nostr

/// One line a driver wrote to its standard output (docs/driver-protocol.md, "Framing"):
///
///     response = {"id": uint, "result": object}
///              | {"id": uint, "error": {"code": string, "message": string}}
///
/// The driver is another program, so the line is untrusted: anything else is a typed
/// `.malformedResponse`, and an error without a code keeps the error (code `unknown`) rather than
/// dropping the line, so the waiting call fails with what the driver said.
package struct DriverResponse {
    package let id: Int
    package let outcome: Result<[String: JSONValue], EngineError>

    package init(line: String) throws(EngineError) {
        guard let response = try? JSONValue(parsing: line).object, let id = response["id"]?.int64.flatMap(Int.init(exactly:)) else {
            throw EngineError(.malformedResponse, "driver wrote a line that is not a response: \(line.prefix(200))")
        }
        self.id = id
        if let error = response["error"]?.object {
            outcome = .failure(EngineError(EngineError.Code(error["code"]?.string ?? "unknown"), error["message"]?.string ?? ""))
        } else if let result = response["result"]?.object {
            outcome = .success(result)
        } else {
            outcome = .failure(EngineError(.malformedResponse, "response \(id) has neither result nor error"))
        }
    }
}

/// The reply decoders as one function over a line, for the `driver-reply` fuzz target: the envelope,
/// then every record shape a result may be read as (which one applies depends on the request, so
/// all are tried). Returns whether the envelope decoded; a record that does not decode is the
/// expected typed error.
package enum DriverReplyFuzzing {
    package static func decode(_ line: String) -> Bool {
        guard let response = try? DriverResponse(line: line), case .success(let fields) = response.outcome else { return false }
        let reply = DriverReply(.processMessage, fields)
        _ = try? reply.engineCapabilities()
        _ = try? reply.keyPackageDraft()
        _ = try? reply.exactState()
        _ = try? reply.protocolSnapshot()
        _ = try? reply.object("group").groupSnapshot()
        _ = try? reply.object("welcome").pendingWelcome()
        _ = try? reply.event("event")
        _ = try? reply.pubkeys("pubkeys")
        _ = try? reply.strings("relays")
        _ = try? reply.uint64("epoch")
        _ = try? reply.evolution()
        _ = try? reply.processingResult()
        _ = try? reply.rumors("welcome_rumors")
        _ = try? reply.objects("groups").map { group throws(EngineError) in try group.groupSnapshot() }
        _ = try? reply.objects("welcomes").map { welcome throws(EngineError) in try welcome.pendingWelcome() }
        _ = try? reply.objects("messages").map { message throws(EngineError) in try message.receivedMessage() }
        _ = try? reply.base64("encrypted_data")
        _ = try? reply.object("image").groupImage()
        _ = try? reply.base64("image_data")
        return true
    }
}
