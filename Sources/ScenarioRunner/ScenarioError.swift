// The one error type of the ScenarioRunner module.

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
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable identifier such as `scenario.unknownKey`; compare errors by code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        public static let yamlSyntax = Code("scenario.yamlSyntax")
        public static let unsupportedYAML = Code("scenario.unsupportedYAML")
        public static let duplicateKey = Code("scenario.duplicateKey")
        public static let unknownKey = Code("scenario.unknownKey")
        public static let missingField = Code("scenario.missingField")
        public static let wrongType = Code("scenario.wrongType")
        public static let invalidValue = Code("scenario.invalidValue")
        public static let badDuration = Code("scenario.badDuration")
        public static let unknownStep = Code("scenario.unknownStep")
        public static let ambiguousStep = Code("scenario.ambiguousStep")
        public static let duplicateName = Code("scenario.duplicateName")
        public static let unknownReference = Code("scenario.unknownReference")
        public static let unreadableFile = Code("scenario.unreadableFile")
    }

    public let code: Code
    public let location: SourceLocation
    public let message: String

    public init(_ code: Code, at location: SourceLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }

    public static func == (lhs: ScenarioError, rhs: ScenarioError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
