import ErrorCodes

// The one error type of the ScenarioModel module; the runner reports the problems of the files it
// reads besides scenarios (vectors, capsules, the defect ledger) with it too.

/// A position in a scenario file (1-based line and column).
package struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    package let file: String
    package let line: Int
    package let column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { "\(file):\(line):\(column)" }
}

/// An error in a scenario file or run, printed as `file:line:column: message`.
package struct ScenarioError: CodedError {
    /// A stable identifier such as `scenario.unknownKey`; compare errors by code.
    package typealias Code = ErrorCode<ScenarioError>

    package let code: Code
    package let location: SourceLocation
    package let message: String

    package init(_ code: Code, at location: SourceLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = message
    }

    package var reason: String { message }
    package var description: String { "\(location): \(message)" }
}

extension ScenarioError.Code {
    package static let yamlSyntax = Self("scenario.yamlSyntax")
    package static let unsupportedYAML = Self("scenario.unsupportedYAML")
    package static let duplicateKey = Self("scenario.duplicateKey")
    package static let unknownKey = Self("scenario.unknownKey")
    package static let missingField = Self("scenario.missingField")
    package static let wrongType = Self("scenario.wrongType")
    package static let invalidValue = Self("scenario.invalidValue")
    package static let badDuration = Self("scenario.badDuration")
    package static let unknownStep = Self("scenario.unknownStep")
    package static let ambiguousStep = Self("scenario.ambiguousStep")
    package static let duplicateName = Self("scenario.duplicateName")
    package static let unknownReference = Self("scenario.unknownReference")
    package static let unreadableFile = Self("scenario.unreadableFile")
}
