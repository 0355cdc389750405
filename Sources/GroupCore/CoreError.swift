/// The one error type of GroupCore: why an action was refused or failed.
public struct CoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        public static let unknownChat = Code("core.unknownChat")
        public static let chatRemoved = Code("core.chatRemoved")
        public static let notAdmin = Code("core.notAdmin")
        public static let allPeersFailed = Code("core.allPeersFailed")
        public static let partialFailureAborted = Code("core.partialFailureAborted")
        public static let commitNotAcknowledged = Code("core.commitNotAcknowledged")
        public static let engine = Code("core.engine")
        public static let busy = Code("core.busy")
        /// The action names nobody or nothing it can act on (no peers, only ourselves, a non-member).
        public static let invalidAction = Code("core.invalidAction")
        /// The core has not been started (no `.start` input yet).
        public static let notStarted = Code("core.notStarted")
    }

    public let code: Code
    public let reason: String
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
    public var description: String { "\(code.name): \(reason)" }
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
