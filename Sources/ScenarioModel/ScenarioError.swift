import ErrorCodes

// The one error type of the ScenarioModel module; the runner reports the problems of the files it
// reads besides scenarios (vectors, capsules, the defect ledger) with it too.

/// A position in a scenario file (1-based line and column).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// An error in a scenario file or run, printed as `file:line:column: message`.
public struct ScenarioError: CodedError {
    /// A stable identifier such as `scenario.unknownKey`; compare errors by code.
    public typealias Code = ErrorCode<ScenarioError>

    public let code: Code
    public let location: SourceLocation
    public let message: String

    public init(_ code: Code, at location: SourceLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = message
    }

    public var reason: String { message }
    public var description: String { "\(location): \(message)" }
}

extension ScenarioError.Code {
    public static let yamlSyntax = Self("scenario.yamlSyntax")
    public static let unsupportedYAML = Self("scenario.unsupportedYAML")
    public static let duplicateKey = Self("scenario.duplicateKey")
    public static let unknownKey = Self("scenario.unknownKey")
    public static let missingField = Self("scenario.missingField")
    public static let wrongType = Self("scenario.wrongType")
    public static let invalidValue = Self("scenario.invalidValue")
    public static let badDuration = Self("scenario.badDuration")
    public static let unknownStep = Self("scenario.unknownStep")
    public static let ambiguousStep = Self("scenario.ambiguousStep")
    public static let duplicateName = Self("scenario.duplicateName")
    public static let unknownReference = Self("scenario.unknownReference")
    public static let unreadableFile = Self("scenario.unreadableFile")
}
