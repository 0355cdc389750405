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
public struct ModuleError<Domain>: CodedError, CustomDebugStringConvertible {
    public typealias Code = ErrorCode<Domain>

    public let code: Code
    /// Human-readable detail; not part of equality.
    public let reason: String
    /// Where the error was made (the `#fileID` and `#line` of the initializer's caller), so a failure
    /// far from its cause can be traced back to it. Not part of equality or hashing (errors are equal
    /// by code), nor of `description` and `reason`: what reaches a user, a trace or a vector must not
    /// change when a line moves. Only `debugDescription` shows it.
    public let fileID: String
    public let line: UInt

    public init(_ code: Code, _ reason: String, fileID: String = #fileID, line: UInt = #line) {
        self.code = code
        self.reason = reason
        self.fileID = fileID
        self.line = line
    }

    /// The description followed by where the error was made: `event.badSignature: … (Nostr/Event.swift:42)`.
    public var debugDescription: String { "\(description) (\(fileID):\(line))" }
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
