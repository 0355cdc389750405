// The shape every module's error type shares: a stable code to assert on, and a human reason.
// Each module still has its own error type (one per module); this removes the repeated plumbing.

/// A stable error identifier such as `event.badSignature`, typed by the error it belongs to so that
/// codes of different modules cannot be compared by mistake.
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

/// An error with a stable code and a free-text reason. Equality and hashing use the code only,
/// so tests can write `#expect(throws: SomeError(.someCode, ""))` without matching wording.
public protocol CodedError: Error, Hashable, Sendable, CustomStringConvertible {
    associatedtype Domain
    var code: ErrorCode<Domain> { get }
    var reason: String { get }
}

extension CodedError {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { "\(code.name): \(reason)" }
}

/// The error type of a module, told apart from other modules' by `Domain` (an empty enum the module
/// declares), so that each module has its own type without repeating its implementation:
///
/// ```swift
/// public enum NostrErrorDomain {}
/// public typealias NostrError = ModuleError<NostrErrorDomain>
/// extension NostrError.Code { public static let badSignature = Self("event.badSignature") }
/// ```
public struct ModuleError<Domain>: CodedError {
    public typealias Code = ErrorCode<Domain>

    public let code: Code
    /// Human-readable detail; not part of equality.
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

// A code is stored (an app core's persisted errors) as its name alone: the domain is the type's.
extension ErrorCode: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
