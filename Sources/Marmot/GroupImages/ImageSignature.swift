// Before encrypting a group image, MDK 0.8.0 checks that the bytes are an image of the MIME type the
// caller named (a client must not publish, say, a PDF as the group's picture). We check the same by
// the formats' leading signatures, for the four formats apps send; MDK also knows BMP, ICO, TIFF,
// farbfeld, AVIF and QOI, which we refuse as unsupported (docs/native-engine.md, "Group image").

/// The leading bytes each supported image format starts with.
enum ImageSignature {
    /// MIME type (lowercase, parameters dropped) → does `bytes` start like that format?
    static let formats: [String: @Sendable ([UInt8]) -> Bool] = [
        // PNG: \x89 P N G \r \n \x1a \n
        "image/png": { $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) },
        // JPEG: SOI marker followed by another marker
        "image/jpeg": { $0.starts(with: [0xFF, 0xD8, 0xFF]) },
        // GIF: "GIF87a" or "GIF89a"
        "image/gif": { $0.starts(with: Array("GIF87a".utf8)) || $0.starts(with: Array("GIF89a".utf8)) },
        // WebP: "RIFF" size[4] "WEBP"
        "image/webp": { $0.count >= 12 && $0.starts(with: Array("RIFF".utf8)) && Array($0[8..<12]) == Array("WEBP".utf8) },
    ]

    /// - Throws: `.invalidImage` for an unsupported MIME type or bytes of another format.
    static func check(_ bytes: [UInt8], mimeType: String) throws(MarmotError) {
        let canonical = String(mimeType.split(separator: ";", maxSplits: 1).first ?? "")
            .trimmingSpaces().lowercased()
        guard let matches = formats[canonical] else {
            throw MarmotError(.invalidImage, "unsupported image type `\(mimeType)`")
        }
        guard matches(bytes) else { throw MarmotError(.invalidImage, "the bytes are not a \(canonical) image") }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
