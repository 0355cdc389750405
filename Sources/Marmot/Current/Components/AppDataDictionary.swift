import ErrorCodes
import MLS
import TLSCodec

extension MarmotError.Code {
    /// An `app_data_dictionary` whose bytes do not decode, or whose entries are not strictly
    /// ascending by component id (out of order or repeated).
    package static let dictionaryInvalid = Self("appData.dictionaryInvalid")
    /// An `app_components` list that does not decode or repeats an id.
    package static let componentListInvalid = Self("appData.componentListInvalid")
    /// An `AppDataUpdate` proposal body that does not decode (unknown operation, trailing bytes).
    package static let appDataUpdateInvalid = Self("appData.updateInvalid")
    /// Component data that breaks its component's grammar or value rules; the reason names the component.
    package static let componentInvalid = Self("component.invalid")
    /// A component the location requires is absent (a reason names the component and the location).
    package static let componentMissing = Self("component.missing")
}

// The dictionary is defined by the MLS extensions draft (draft-ietf-mls-extensions-10); Marmot owns
// only the bytes inside each `data`. This is the pure byte codec, kept here because every Marmot
// rule reads it; the MLS target owns the extension type (0x0006) in its extension lists.
//
// struct {
//     ComponentID component_id;
//     opaque data<V>;
// } ComponentData;
//
// struct {
//     ComponentData component_data<V>;   // sorted by component_id, at most one entry per id
// } AppDataDictionary;                   // extension_data of extension type app_data_dictionary
/// One dictionary entry: a component id and the bytes its owning document defines.
package struct ComponentData: Hashable, Sendable {
    package var id: ComponentID
    package var data: [UInt8]

    package init(id: ComponentID, data: [UInt8]) {
        self.id = id
        self.data = data
    }
}

/// An `app_data_dictionary`: component entries strictly ascending by id. Decoding never sorts,
/// deduplicates or repairs (canonical decoding): bytes out of order are invalid, so two members
/// can never read different values from one dictionary.
package struct AppDataDictionary: Hashable, Sendable {
    package private(set) var entries: [ComponentData]

    /// - Throws: `.dictionaryInvalid` when the ids are not strictly ascending.
    package init(entries: [ComponentData]) throws(MarmotError) {
        try Self.requireAscending(entries)
        self.entries = entries
    }

    /// Entries the caller keeps strictly ascending by construction (a decoded dictionary's, with
    /// insertions at their place).
    init(ascending entries: [ComponentData]) { self.entries = entries }

    /// Decodes an `app_data_dictionary` extension body.
    /// - Throws: `.dictionaryInvalid`.
    package init(bytes: [UInt8]) throws(MarmotError) {
        var reader = TLSReader(bytes)
        let entries: [ComponentData]
        do {
            entries = try reader.readVector { (inner: inout TLSReader) throws(TLSCodecError) in
                ComponentData(id: ComponentID(try inner.readUInt16()), data: try inner.readOpaque())
            }
            try reader.finish()
        } catch {
            throw MarmotError(.dictionaryInvalid, "app_data_dictionary does not decode: \(error.reason)")
        }
        try self.init(entries: entries)
    }

    /// The dictionary of an extension list, or nil when the list has no `app_data_dictionary`.
    /// - Throws: `.dictionaryInvalid`.
    package init?(extensions: [Extension]) throws(MarmotError) {
        guard let data = extensions.data(ofType: CurrentProfileCodePoints.appDataDictionary) else { return nil }
        try self.init(bytes: data)
    }

    /// The TLS encoding (the extension body).
    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeVector { inner in
            for entry in entries {
                inner.write(entry.id.rawValue)
                inner.writeOpaque(entry.data)
            }
        }
        return writer.bytes
    }

    /// The dictionary as an MLS extension.
    package var mlsExtension: Extension { Extension(type: CurrentProfileCodePoints.appDataDictionary, data: encoded()) }

    /// The data of component `id`, if present.
    package subscript(id: ComponentID) -> [UInt8]? { entries.first { $0.id == id }?.data }

    /// The ids present, ascending.
    package var ids: [ComponentID] { entries.map(\.id) }

    /// This dictionary with `id` set to `data` (inserted at its place, or replaced); every other
    /// entry, known or not, keeps its bytes.
    package func setting(_ id: ComponentID, to data: [UInt8]) -> Self {
        var copy = self
        if let index = copy.entries.firstIndex(where: { $0.id == id }) {
            copy.entries[index].data = data
        } else {
            let index = copy.entries.firstIndex { $0.id > id } ?? copy.entries.endIndex
            copy.entries.insert(ComponentData(id: id, data: data), at: index)
        }
        return copy
    }

    /// This dictionary without component `id`.
    package func removing(_ id: ComponentID) -> Self {
        var copy = self
        copy.entries.removeAll { $0.id == id }
        return copy
    }

    private static func requireAscending(_ entries: [ComponentData]) throws(MarmotError) {
        for (previous, next) in zip(entries, entries.dropFirst()) where next.id <= previous.id {
            throw MarmotError(
                .dictionaryInvalid,
                next.id == previous.id
                    ? "component \(next.id) appears twice" : "component \(next.id) follows \(previous.id): not ascending")
        }
    }
}

// struct {
//     ComponentID component_ids<V>;
// } AppComponents;      // data of component 0x0001
/// An `app_components` list: in a LeafNode the ids it supports, in a GroupContext the ids the group
/// requires. Order is kept as on the wire (the draft sorts nothing here); a repeated id is invalid.
package struct AppComponents: Hashable, Sendable {
    package var ids: [ComponentID]

    package init(_ ids: [ComponentID]) { self.ids = ids }

    /// - Throws: `.componentListInvalid`.
    package init(bytes: [UInt8]) throws(MarmotError) {
        var reader = TLSReader(bytes)
        let ids: [ComponentID]
        do {
            ids = try reader.readVector { (inner: inout TLSReader) throws(TLSCodecError) in ComponentID(try inner.readUInt16()) }
            try reader.finish()
        } catch {
            throw MarmotError(.componentListInvalid, "app_components does not decode: \(error.reason)")
        }
        guard Set(ids).count == ids.count else {
            throw MarmotError(.componentListInvalid, "app_components repeats an id: \(ids.map(\.hexTag))")
        }
        self.ids = ids
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeVector { inner in for id in ids { inner.write(id.rawValue) } }
        return writer.bytes
    }

    package func contains(_ id: ComponentID) -> Bool { ids.contains(id) }

    /// The `app_components` entry of `dictionary`, if any.
    /// - Throws: `.componentListInvalid`.
    package init?(in dictionary: AppDataDictionary) throws(MarmotError) {
        guard let data = dictionary[.appComponents] else { return nil }
        try self.init(bytes: data)
    }
}

// enum { invalid(0), update(1), remove(2), (255) } AppDataUpdateOperation;
//
// struct {
//     ComponentID component_id;
//     AppDataUpdateOperation op;
//     select (AppDataUpdate.op) {
//         case update: opaque update<V>;
//         case remove: struct{};
//     };
// } AppDataUpdate;      // body of proposal type app_data_update (0x0008)
/// The body of an `app_data_update` proposal: replace a GroupContext component's data, or remove it.
/// The MLS target frames the proposal; this is its byte codec, which Marmot's rules read.
package struct AppDataUpdate: Hashable, Sendable {
    package enum Operation: Hashable, Sendable {
        /// New data; for every v1 Marmot component a full replacement state.
        case update([UInt8])
        case remove
    }

    package var component: ComponentID
    package var operation: Operation

    package init(component: ComponentID, operation: Operation) {
        self.component = component
        self.operation = operation
    }

    package func encode(to writer: inout TLSWriter) {
        writer.write(component.rawValue)
        switch operation {
        case .update(let data):
            writer.write(UInt8(1))
            writer.writeOpaque(data)
        case .remove:
            writer.write(UInt8(2))
        }
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        encode(to: &writer)
        return writer.bytes
    }

    /// Reads one body from `reader` (inside a proposal list, where the caller goes on reading).
    /// - Throws: `.appDataUpdateInvalid`.
    package init(from reader: inout TLSReader) throws(MarmotError) {
        do {
            component = ComponentID(try reader.readUInt16())
            switch try reader.readUInt8() {
            case 1: operation = .update(try reader.readOpaque())
            case 2: operation = .remove
            case let other: throw MarmotError(.appDataUpdateInvalid, "operation \(other) is neither update(1) nor remove(2)")
            }
        } catch let error as MarmotError {
            throw error
        } catch {
            throw MarmotError(.appDataUpdateInvalid, "AppDataUpdate does not decode: \(error)")
        }
    }

    /// Decodes exactly one body.
    /// - Throws: `.appDataUpdateInvalid`.
    package init(bytes: [UInt8]) throws(MarmotError) {
        var reader = TLSReader(bytes)
        try self.init(from: &reader)
        guard reader.isAtEnd else { throw MarmotError(.appDataUpdateInvalid, "\(reader.remaining.count) trailing bytes") }
    }
}

/// Reads one component's data with `body`, requiring every byte to be consumed; any failure is
/// `.componentInvalid` naming the component (a component's own `MarmotError` passes through).
func readComponent<T>(
    _ bytes: [UInt8], as id: ComponentID, _ body: (inout TLSReader) throws -> T
) throws(MarmotError) -> T {
    var reader = TLSReader(bytes)
    do {
        let value = try body(&reader)
        try reader.finish()
        return value
    } catch let error as MarmotError {
        throw error
    } catch let error as TLSCodecError {
        throw MarmotError(.componentInvalid, "\(id): \(error.reason)")
    } catch {
        throw MarmotError(.componentInvalid, "\(id): \(error)")
    }
}

/// UTF-8 text of a component field, or `.componentInvalid`.
func componentText(_ bytes: [UInt8], field: String, of id: ComponentID) throws(MarmotError) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw MarmotError(.componentInvalid, "\(id): \(field) is not UTF-8")
    }
    return text
}

/// `.componentInvalid` unless `bytes` has at most `maximum` bytes.
func requireLength(_ bytes: [UInt8], atMost maximum: Int, field: String, of id: ComponentID) throws(MarmotError) {
    guard bytes.count <= maximum else {
        throw MarmotError(.componentInvalid, "\(id): \(field) has \(bytes.count) bytes, more than \(maximum)")
    }
}
