import EngineInterface
import Nostr

extension NativeSwiftEngine {
    package func groups() async throws(EngineError) -> [GroupSnapshot] {
        groups.values.map(\.snapshot).sorted { $0.mlsGroupID.hex < $1.mlsGroupID.hex }
    }

    package func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot { try record(group).snapshot }

    package func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try record(group).members }

    package func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try record(group).data.admins }

    package func relays(of group: MLSGroupID) async throws(EngineError) -> [String] { try record(group).data.relays }

    package func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64 { try record(group).mls.epoch }

    package func messages(in group: MLSGroupID) async throws(EngineError) -> [EngineInterface.ReceivedMessage] {
        try record(group).messages
    }
}
