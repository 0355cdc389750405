import ConformanceTestSupport
import HexEncoding
import TLSCodec
import Testing

/// A composite of every shape the codec supports, used to check round trips and truncation.
private struct Sample: TLSCodable, Equatable {
    var tag: UInt8
    var count: UInt16
    var epoch: UInt64
    var name: [UInt8]
    var items: [UInt32]
    var note: [UInt8]?

    func encode(to writer: inout TLSWriter) {
        writer.write(tag)
        writer.write(count)
        writer.write(epoch)
        writer.writeOpaque(name)
        writer.writeVector(items)
        writer.writeOptional(note) { w, v in w.writeOpaque(v) }
    }

    init(tag: UInt8, count: UInt16, epoch: UInt64, name: [UInt8], items: [UInt32], note: [UInt8]?) {
        (self.tag, self.count, self.epoch, self.name, self.items, self.note) = (tag, count, epoch, name, items, note)
    }

    init(from reader: inout TLSReader) throws(TLSCodecError) {
        tag = try reader.readUInt8()
        count = try reader.readUInt16()
        epoch = try reader.readUInt64()
        name = try reader.readOpaque()
        items = try reader.readVector(of: UInt32.self)
        note = try reader.readOptional { (r: inout TLSReader) throws(TLSCodecError) in try r.readOpaque() }
    }
}

private func decodeError(_ bytes: [UInt8], as type: (some TLSDecodable).Type) -> TLSCodecError.Code? {
    do {
        _ = try type.init(tlsBytes: bytes)
        return nil
    } catch {
        return error.code
    }
}

private struct Varint: TLSCodable {
    var value: UInt32
    init(_ value: UInt32) { self.value = value }
    func encode(to writer: inout TLSWriter) { writer.writeVarint(Int(value)) }
    init(from reader: inout TLSReader) throws(TLSCodecError) { value = try reader.readVarint() }
}

@Suite struct TLSCodecTests {
    fileprivate static let sample = Sample(
        tag: 7, count: 0x1234, epoch: 0x0102_0304_0506_0708, name: Array(repeating: 0xab, count: 70),
        items: [1, 2, 0xffff_ffff], note: [9, 9])

    @Test func sampleRoundTripsWithExpectedBytes() throws {
        let bytes = try Self.sample.tlsSerialized()
        // tag, count, epoch, then a 2-byte varint for the 70-byte name.
        #expect(Array(bytes[0..<11]) == [7, 0x12, 0x34, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Array(bytes[11..<13]) == [0x40, 70])
        #expect(Array(bytes[83..<84]) == [12])
        #expect(Array(bytes.suffix(4)) == [1, 2, 9, 9])
        #expect(try Sample(tlsBytes: bytes) == Self.sample)
    }

    @Test func everyProperPrefixFails() throws {
        let bytes = try Self.sample.tlsSerialized()
        for prefix in Mutations.properPrefixes(of: bytes) {
            #expect(decodeError(Array(prefix), as: Sample.self) == .truncated)
        }
    }

    @Test func trailingBytesRejected() throws {
        let bytes = try Self.sample.tlsSerialized() + [0]
        #expect(decodeError(bytes, as: Sample.self) == .trailingBytes)
    }

    @Test func presenceByteMustBeZeroOrOne() throws {
        var bytes = try Self.sample.tlsSerialized()
        bytes[bytes.count - 4] = 2
        #expect(decodeError(bytes, as: Sample.self) == .invalidOptional)
        var absent = Self.sample
        absent.note = nil
        #expect(try absent.tlsSerialized().last == 0)
    }

    static let boundaries: [(UInt32, [UInt8])] = [
        (0, [0x00]), (63, [0x3f]), (64, [0x40, 0x40]), (16383, [0x7f, 0xff]),
        (16384, [0x80, 0x00, 0x40, 0x00]), ((1 << 30) - 1, [0xbf, 0xff, 0xff, 0xff]),
    ]

    @Test(arguments: boundaries)
    func varintBoundaries(value: UInt32, encoding: [UInt8]) throws {
        #expect(try Varint(value).tlsSerialized() == encoding)
        #expect(try Varint(tlsBytes: encoding).value == value)
    }

    @Test(arguments: [[UInt8(0x40), 0x3f], [0x40, 0x00], [0x80, 0x00, 0x3f, 0xff], [0x80, 0x00, 0x00, 0x00]])
    func nonMinimalVarintsRejected(encoding: [UInt8]) {
        #expect(decodeError(encoding, as: Varint.self) == .nonMinimalVarint)
    }

    @Test func reservedVarintPrefixRejected() {
        #expect(decodeError([0xc0, 0, 0, 0, 0, 0, 0, 1], as: Varint.self) == .invalidVarintPrefix)
    }

    @Test func oversizedLengthFailsTheWriter() {
        #expect(throws: TLSCodecError(.lengthTooLarge, "")) { try Varint(1 << 30).tlsSerialized() }
    }

    @Test func vectorLengthMustCoverWholeElements() throws {
        // A 3-byte body cannot hold whole uint16 elements.
        #expect(decodeError([3, 0, 1, 2], as: VectorOfUInt16.self) == .truncated)
        #expect((try? VectorOfUInt16(tlsBytes: [4, 0, 1, 0, 2]))?.items == [1, 2])
    }

    private struct VectorOfUInt16: TLSDecodable {
        var items: [UInt16]
        init(from reader: inout TLSReader) throws(TLSCodecError) { items = try reader.readVector(of: UInt16.self) }
    }
}

/// deserialization.json (mlswg/mls-implementations): varint length headers.
@Suite struct DeserializationVectorTests {
    struct Case: Decodable {
        let vlbytes_header: String
        let length: UInt32
    }

    @Test func deserializationVectors() throws {
        let cases = try Vectors.decode([Case].self, from: "mls/deserialization.json")
        var passed = 0
        for c in cases {
            let header = try [UInt8](hex: c.vlbytes_header)
            #expect(try Varint(tlsBytes: header).value == c.length)
            #expect(try Varint(c.length).tlsSerialized() == header)
            passed += 1
        }
        #expect(passed == 14)
        print("deserialization.json: \(passed) passed, 0 skipped")
    }
}
