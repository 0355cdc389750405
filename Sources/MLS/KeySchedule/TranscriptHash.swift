import TLSCodec

// struct {
//     WireFormat wire_format;
//     FramedContent content;   /* with content_type == commit */
//     opaque signature<V>;
// } ConfirmedTranscriptHashInput;
//
// struct {
//     MAC confirmation_tag;
// } InterimTranscriptHashInput;
extension CipherSuite {
    /// confirmed_transcript_hash_[n] = Hash(interim_[n-1] ‖ ConfirmedTranscriptHashInput).
    public func confirmedTranscriptHash(interim: [UInt8], commit: AuthenticatedContent) -> [UInt8] {
        var w = TLSWriter()
        w.write(commit.wireFormat)
        w.write(commit.content)
        w.writeOpaque(commit.auth.signature)
        return hash(interim + w.bytes)
    }

    /// interim_transcript_hash_[n] = Hash(confirmed_[n] ‖ InterimTranscriptHashInput).
    public func interimTranscriptHash(confirmed: [UInt8], confirmationTag: [UInt8]) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(confirmationTag)
        return hash(confirmed + w.bytes)
    }

    /// confirmation_tag = MAC(confirmation_key, confirmed_transcript_hash).
    public func confirmationTag(confirmationKey: [UInt8], confirmedTranscriptHash: [UInt8]) -> [UInt8] {
        mac(key: confirmationKey, data: confirmedTranscriptHash)
    }
}
