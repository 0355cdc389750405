import EngineInterface
import Nostr

extension NativeSwiftEngine {
    public func groups() async throws(EngineError) -> [GroupSnapshot] {
        groups.values.map(\.snapshot).sorted { $0.mlsGroupID.hex < $1.mlsGroupID.hex }
    }

    public func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot { try record(group).snapshot }

    public func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try record(group).members }

    public func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try record(group).data.admins }

    public func relays(of group: MLSGroupID) async throws(EngineError) -> [String] { try record(group).data.relays }

    public func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64 { try record(group).mls.epoch }

    public func messages(in group: MLSGroupID) async throws(EngineError) -> [EngineInterface.ReceivedMessage] { try record(group).messages }
}
