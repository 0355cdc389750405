import Nostr

// Voice and file messages are chat messages (kind 9) that carry a NIP-92 media tag, as Marmot's
// media messages do (MIP-04 puts its encrypted-media fields in `imeta` on the kind-9 rumor):
//
//     imeta-tag = "[" "\"imeta\"" "," "\"url " url "\"" "," "\"m " mime-type "\"" [ "," "\"filename " name "\"" ] "]"
//
// The MIME type decides what the message is: `audio/*` is a voice message, anything else a file.
// No new kind: clients that know nothing of media still show the text, and the role table judges
// the message like any chat message (observers cannot send it) plus the group preference for its
// kind (`voice-messages`, `files`). We carry the reference only; no blob is uploaded or fetched.

/// What a media message carries.
package enum MediaKind: String, Hashable, Sendable, Codable, CaseIterable {
    case voice, file

    /// The permission-table action posting this kind is.
    var action: RoleAction { self == .voice ? .sendVoice : .sendFile }
}

/// A reference to media sent with a chat message.
package struct MediaAttachment: Hashable, Sendable, Codable {
    package var url: String
    package var mimeType: String
    package var filename: String?

    package init(url: String, mimeType: String, filename: String? = nil) {
        self.url = url
        self.mimeType = mimeType
        self.filename = filename
    }

    package var kind: MediaKind { mimeType.lowercased().hasPrefix("audio/") ? .voice : .file }

    static let tagName = "imeta"

    var tag: [String] { [Self.tagName, "url \(url)", "m \(mimeType)"] + (filename.map { ["filename \($0)"] } ?? []) }

    /// The media kind a rumor's tags declare; nil for a plain message. An `imeta` without a usable
    /// `m` entry is a file: something is attached, and only its type is unknown.
    static func kind(of tags: [[String]]) -> MediaKind? {
        guard let tag = tags.first(where: { $0.first == tagName }) else { return nil }
        let mime = tag.dropFirst().first { $0.hasPrefix("m ") }.map { String($0.dropFirst(2)) }
        return mime.map { MediaAttachment(url: "", mimeType: $0).kind } ?? .file
    }
}
