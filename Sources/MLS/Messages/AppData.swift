// Application data carried by MLS itself, as draft-ietf-mls-extensions defines it and as the current
// Marmot profile uses it (the draft's values are pinned in Marmot's foundation/registries.md and
// confirmed by MDK v0.11.0's captured bytes, vectors/mdk-0.11): the `app_data_dictionary`
// extension (type 0x0006) in a GroupContext, LeafNode or KeyPackage, and the `app_data_update`
// proposal (type 0x0008) that changes one entry of the GroupContext's dictionary. Entries are keyed
// by a ComponentID, a namespace of its own: 0x0001 `app_components` and 0x0004
// `last_resort_key_package` are component ids, not extension types, so they do not collide with
// RFC 9420's application_id (0x0001) or external_pub (0x0004) extensions.
//
// MLS does not interpret the value of a component; it keeps the dictionary well formed and applies
// updates. What a value means is the application's (Marmot's components live above MLS).
import TLSCodec

/// ComponentID values (uint16) of the MLS extensions draft this implementation knows by name.
public enum ComponentID {
    /// `app_components`: the list of component ids a leaf supports, or a group requires.
    public static let appComponents: UInt16 = 0x0001
    /// `safe_aad`: component-separated framing of authenticated_data (not interpreted here).
    public static let safeAAD: UInt16 = 0x0002
    /// `last_resort_key_package`: an empty entry in a KeyPackage's dictionary marks a key package
    /// that may be used more than once.
    public static let lastResortKeyPackage: UInt16 = 0x0004
}

extension ExtensionType {
    /// `app_data_dictionary` (MLS extensions draft): GroupContext, LeafNode and KeyPackage.
    public static let appDataDictionary: UInt16 = 0x0006
}

// struct {
//     ComponentID component_id;      // uint16
//     opaque data<V>;
// } ComponentData;
/// One entry of an application data dictionary.
public struct ComponentData: TLSCodable, Hashable, Sendable {
    public var componentID: UInt16
    public var data: [UInt8]

    public init(componentID: UInt16, data: [UInt8]) {
        self.componentID = componentID
        self.data = data
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(componentID)
        writer.writeOpaque(data)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        componentID = try reader.readUInt16()
        data = try reader.readOpaque()
    }
}

// struct {
//     ComponentData component_data<V>;   // sorted by component_id, each id at most once
// } AppDataDictionary;
/// The body of an `app_data_dictionary` extension. Decoding refuses entries out of order or
/// repeated: two members reading the same bytes must see one value per component.
public struct AppDataDictionary: TLSCodable, Hashable, Sendable {
    /// Entries in ascending component id order.
    public private(set) var entries: [ComponentData]

    /// - Throws: `.malformed` when `entries` are not strictly ascending by component id.
    public init(entries: [ComponentData]) throws(MLSError) {
        guard Self.isStrictlyAscending(entries) else {
            throw MLSError(.malformed, "app_data_dictionary entries are not in strictly ascending component order")
        }
        self.entries = entries
    }

    public init() { entries = [] }

    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(entries)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        entries = try reader.readVector(of: ComponentData.self)
        guard Self.isStrictlyAscending(entries) else {
            throw TLSCodecError(.invalidValue, "app_data_dictionary entries are not in strictly ascending component order")
        }
    }

    private static func isStrictlyAscending(_ entries: [ComponentData]) -> Bool {
        zip(entries, entries.dropFirst()).allSatisfy { $0.componentID < $1.componentID }
    }

    /// The value of `componentID`, if present.
    public subscript(componentID: UInt16) -> [UInt8]? {
        entries.first { $0.componentID == componentID }?.data
    }

    /// Sets (inserting in order) or, with nil, removes the entry of `componentID`.
    public mutating func set(_ componentID: UInt16, to data: [UInt8]?) {
        let index = entries.firstIndex { $0.componentID >= componentID } ?? entries.endIndex
        let present = index < entries.endIndex && entries[index].componentID == componentID
        switch (data, present) {
        case (let data?, true): entries[index].data = data
        case (let data?, false): entries.insert(ComponentData(componentID: componentID, data: data), at: index)
        case (nil, true): entries.remove(at: index)
        case (nil, false): break
        }
    }

    /// This dictionary as an `app_data_dictionary` extension (for a GroupContext, LeafNode or
    /// KeyPackage extension list).
    public func asExtension() throws(MLSError) -> Extension {
        Extension(type: ExtensionType.appDataDictionary, data: try serialize(self))
    }

    /// The KeyPackage dictionary of the current profile's last-resort marking: the empty
    /// `last_resort_key_package` component.
    public static var lastResortKeyPackage: AppDataDictionary {
        var dictionary = AppDataDictionary()
        dictionary.set(ComponentID.lastResortKeyPackage, to: [])
        return dictionary
    }

    /// The component ids of an `app_components` entry, if present.
    /// - Throws: `.malformed` when the entry does not decode as `ComponentID component_ids<V>`.
    public func appComponents() throws(MLSError) -> [UInt16]? {
        guard let data = self[ComponentID.appComponents] else { return nil }
        return try decodeExactly(AppComponents.self, from: data).componentIDs
    }
}

// struct {
//     ComponentID component_ids<V>;
// } AppComponents;
/// The value of the `app_components` entry: in a LeafNode, the components the member supports;
/// in a GroupContext, the components every member must support.
public struct AppComponents: TLSCodable, Hashable, Sendable {
    public var componentIDs: [UInt16]

    public init(componentIDs: [UInt16]) { self.componentIDs = componentIDs }

    public func encode(to writer: inout TLSWriter) { writer.writeVector(componentIDs) }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        componentIDs = try reader.readVector(of: UInt16.self)
    }
}

// enum { invalid(0), update(1), remove(2), (255) } AppDataUpdateOperation;
//
// struct {
//     ComponentID component_id;
//     AppDataUpdateOperation op;
//     select (AppDataUpdate.op) {
//         case update: opaque update<V>;
//         case remove: struct {};
//     };
// } AppDataUpdate;
/// The body of an `app_data_update` proposal: a new value for one component of the
/// GroupContext's dictionary, or its removal.
public struct AppDataUpdate: TLSCodable, Hashable, Sendable {
    public enum Operation: Hashable, Sendable {
        case update([UInt8])
        case remove
    }

    public var componentID: UInt16
    public var operation: Operation

    public init(componentID: UInt16, operation: Operation) {
        self.componentID = componentID
        self.operation = operation
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(componentID)
        switch operation {
        case .update(let data):
            writer.write(UInt8(1))
            writer.writeOpaque(data)
        case .remove:
            writer.write(UInt8(2))
        }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        componentID = try reader.readUInt16()
        switch try reader.readUInt8() {
        case 1: operation = .update(try reader.readOpaque())
        case 2: operation = .remove
        case let other: throw unknownValue("app_data_update operation", other)
        }
    }
}

extension Array where Element == Extension {
    /// The `app_data_dictionary` of this extension list, if it has one.
    /// - Throws: `.malformed` when its body does not decode.
    public func appDataDictionary() throws(MLSError) -> AppDataDictionary? {
        guard let data = data(ofType: ExtensionType.appDataDictionary) else { return nil }
        return try decodeExactly(AppDataDictionary.self, from: data)
    }

    /// This list with its `app_data_dictionary` replaced by `dictionary` in place (appended when
    /// the list had none), so the other extensions keep their order.
    public func replacingAppDataDictionary(with dictionary: AppDataDictionary) throws(MLSError) -> [Extension] {
        let item = try dictionary.asExtension()
        var out = self
        if let index = out.firstIndex(where: { $0.type == ExtensionType.appDataDictionary }) {
            out[index] = item
        } else {
            out.append(item)
        }
        return out
    }
}

extension KeyPackage {
    /// True when the KeyPackage's app_data_dictionary carries the `last_resort_key_package`
    /// component (the current profile's marking; the legacy one is ``isLastResort``).
    public var isLastResortComponent: Bool {
        guard let dictionary = try? extensions.appDataDictionary() else { return false }
        return dictionary[ComponentID.lastResortKeyPackage] != nil
    }
}

extension LeafNode {
    /// The component ids the leaf lists in its `app_components` entry (empty when it has none).
    /// - Throws: `.malformed` for an undecodable dictionary or entry.
    public func supportedComponents() throws(MLSError) -> [UInt16] {
        try extensions.appDataDictionary()?.appComponents() ?? []
    }
}
