// Marmot 0.8 carries every binary payload (key packages, welcomes, kind-445 contents) as standard
// padded base64 and marks it with ["encoding","base64"]; hex is rejected by MDK and by us.
import Base64Encoding
import ErrorCodes

extension MarmotError.Code {
    /// Content that is not valid padded base64.
    package static let invalidBase64 = Self("encoding.invalidBase64")
    /// A missing `encoding` tag or one other than `base64`.
    package static let invalidEncoding = Self("encoding.invalidEncoding")
}

/// The `["encoding","base64"]` tag and its codec.
package enum Base64Content {
    package static let tag = ["encoding", "base64"]

    package static func encode(_ bytes: [UInt8]) -> String { Base64.encode(bytes) }

    /// - Throws: `.invalidBase64`.
    package static func decode(_ text: String) throws(MarmotError) -> [UInt8] {
        do { return try Base64.decode(text) } catch {
            throw MarmotError(.invalidBase64, "content is not strict padded standard base64: \(error.reason)")
        }
    }

    /// Checks that `tags` declare base64 content (exactly one `encoding` tag, value `base64`).
    /// - Throws: `.invalidEncoding`.
    package static func requireTag(in tags: [[String]]) throws(MarmotError) {
        let encodings = tags.filter { $0.first == "encoding" }
        guard encodings.count == 1, encodings[0].count >= 2, encodings[0][1] == "base64" else {
            throw MarmotError(.invalidEncoding, "expected one [\"encoding\",\"base64\"] tag")
        }
    }
}
