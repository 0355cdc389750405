import ErrorCodes
import MLS
import TLSCodec

extension MarmotError.Code {
    /// An `app_data_dictionary` whose bytes do not decode, or whose entries are not strictly
    /// ascending by component id (out of order or repeated).
    package static let dictionaryInvalid = Self("appData.dictionaryInvalid")
    /// An `app_components` list that does not decode or repeats an id.
    package static let componentListInvalid = Self("appData.componentListInvalid")
    /// Component data that breaks its component's grammar or value rules; the reason names the component.
    package static let componentInvalid = Self("component.invalid")
    /// A component the location requires is absent (a reason names the component and the location).
    package static let componentMissing = Self("component.missing")
}

// The dictionary, the `app_components` list and the AppDataUpdate body are MLS structures (the
// MLS target frames them: Sources/MLS/Messages/AppData.swift). Marmot owns the bytes inside each
// entry of a Marmot component id; these extensions read the MLS structures with Marmot's errors
// and Marmot's typed ids.
//
// struct { ComponentID component_id; opaque data<V>; } ComponentData;
// struct { ComponentData component_data<V>; } AppDataDictionary;   // strictly ascending ids
// struct { ComponentID component_ids<V>; } AppComponents;          // Marmot: no repeated id
extension AppDataDictionary {
    /// Decodes an `app_data_dictionary` extension body (entries strictly ascending; never sorted
    /// or deduplicated while decoding).
    /// - Throws: `.dictionaryInvalid`.
    package init(marmotBytes bytes: [UInt8]) throws(MarmotError) {
        do { self = try AppDataDictionary(tlsBytes: bytes) } catch {
            throw MarmotError(.dictionaryInvalid, "app_data_dictionary does not decode: \(error.reason)")
        }
    }

    /// The dictionary of an extension list, or nil when the list has none.
    /// - Throws: `.dictionaryInvalid`.
    package static func marmot(in extensions: [Extension]) throws(MarmotError) -> AppDataDictionary? {
        guard let data = extensions.data(ofType: ExtensionType.appDataDictionary) else { return nil }
        return try AppDataDictionary(marmotBytes: data)
    }

    /// A dictionary of `entries`.
    /// - Throws: `.dictionaryInvalid` when they are not strictly ascending by id.
    package init(marmotEntries entries: [ComponentData]) throws(MarmotError) {
        do { try self.init(entries: entries) } catch { throw MarmotError(.dictionaryInvalid, error.reason) }
    }

    /// The data of component `id`, if present.
    package subscript(component id: AppComponentID) -> [UInt8]? { self[id.rawValue] }

    /// The ids present, ascending.
    package var components: [AppComponentID] { entries.map { AppComponentID($0.componentID) } }

    /// The TLS encoding (the extension body).
    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.write(self)
        return writer.bytes
    }

    /// The dictionary as an MLS extension.
    package var mlsExtension: Extension { Extension(type: ExtensionType.appDataDictionary, data: encoded()) }

    /// This dictionary without component `id`.
    package func removing(_ id: AppComponentID) -> Self {
        var copy = self
        copy.set(id.rawValue, to: nil)
        return copy
    }
}

extension ComponentData {
    /// An entry of Marmot component `id`.
    package init(id: AppComponentID, data: [UInt8]) { self.init(componentID: id.rawValue, data: data) }

    /// The entry's component, as a Marmot id.
    package var id: AppComponentID { AppComponentID(componentID) }
}

extension AppComponents {
    package init(_ ids: [AppComponentID]) { self.init(componentIDs: ids.map(\.rawValue)) }

    /// Decodes an `app_components` entry; Marmot refuses a repeated id (a list says each id once).
    /// - Throws: `.componentListInvalid`.
    package init(marmotBytes bytes: [UInt8]) throws(MarmotError) {
        do { self = try AppComponents(tlsBytes: bytes) } catch {
            throw MarmotError(.componentListInvalid, "app_components does not decode: \(error.reason)")
        }
        guard Set(componentIDs).count == componentIDs.count else {
            throw MarmotError(.componentListInvalid, "app_components repeats an id: \(ids.map(\.hexTag))")
        }
    }

    /// The `app_components` entry of `dictionary`, if any.
    /// - Throws: `.componentListInvalid`.
    package static func marmot(in dictionary: AppDataDictionary) throws(MarmotError) -> AppComponents? {
        guard let data = dictionary[component: .appComponents] else { return nil }
        return try AppComponents(marmotBytes: data)
    }

    package var ids: [AppComponentID] { componentIDs.map { AppComponentID($0) } }

    package func contains(_ id: AppComponentID) -> Bool { componentIDs.contains(id.rawValue) }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.write(self)
        return writer.bytes
    }
}

extension AppDataUpdate {
    /// The component the update targets, as a Marmot id.
    package var component: AppComponentID { AppComponentID(componentID) }

    package init(component: AppComponentID, operation: Operation) {
        self.init(componentID: component.rawValue, operation: operation)
    }
}

/// Reads one component's data with `body`, requiring every byte to be consumed; any failure is
/// `.componentInvalid` naming the component (a component's own `MarmotError` passes through).
func readComponent<T>(
    _ bytes: [UInt8], as id: AppComponentID, _ body: (inout TLSReader) throws -> T
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
func componentText(_ bytes: [UInt8], field: String, of id: AppComponentID) throws(MarmotError) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw MarmotError(.componentInvalid, "\(id): \(field) is not UTF-8")
    }
    return text
}

/// `.componentInvalid` unless `bytes` has at most `maximum` bytes.
func requireLength(_ bytes: [UInt8], atMost maximum: Int, field: String, of id: AppComponentID) throws(MarmotError) {
    guard bytes.count <= maximum else {
        throw MarmotError(.componentInvalid, "\(id): \(field) has \(bytes.count) bytes, more than \(maximum)")
    }
}
