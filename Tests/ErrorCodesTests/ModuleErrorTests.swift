import ErrorCodes
import Testing

private enum SampleDomain {}
private typealias SampleError = ModuleError<SampleDomain>

extension SampleError.Code {
    fileprivate static let broken = Self("sample.broken")
    fileprivate static let other = Self("sample.other")
}

/// An error made by a helper lands on the helper's line unless the helper passes its caller's on,
/// as a module's convenience constructors should.
private func made(fileID: String = #fileID, line: UInt = #line) -> SampleError {
    SampleError(.broken, "made by a helper", fileID: fileID, line: line)
}

/// ModuleError records where it was made, and that record stays out of everything a user, a trace or a
/// vector sees: equality, hashing, `description` and `reason`.
@Suite struct ModuleErrorTests {
    @Test func recordsTheFileAndLineItWasMadeOn() {
        let line: UInt = #line + 1
        let error = SampleError(.broken, "the input ended early")
        #expect(error.fileID == "ErrorCodesTests/ModuleErrorTests.swift")
        #expect(error.line == line)
        let forwardedLine: UInt = #line + 1
        let forwarded = made()
        #expect(forwarded.line == forwardedLine)
    }

    @Test func equalityAndHashingAreByCodeAlone() {
        let first = SampleError(.broken, "one wording")
        let second = SampleError(.broken, "another wording")
        #expect(first.line != second.line)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        // The twin: a different code is a different error, wherever it was made.
        #expect(SampleError(.other, "one wording") != first)
    }

    @Test func descriptionAndReasonCarryNoLocation() {
        let error = SampleError(.broken, "the input ended early")
        #expect(error.description == "sample.broken: the input ended early")
        #expect(error.reason == "the input ended early")
        #expect(String(describing: error) == error.description)
        #expect("\(error)" == error.description)
        #expect(!error.description.contains(".swift"))
    }

    @Test func debugDescriptionShowsWhereItWasMade() {
        let line = #line + 1
        let error = SampleError(.broken, "the input ended early")
        #expect(error.debugDescription == "sample.broken: the input ended early (ErrorCodesTests/ModuleErrorTests.swift:\(line))")
        #expect(String(reflecting: error) == error.debugDescription)
    }

    /// Printed inside another value (an enum's payload, an optional, an array), Swift uses the debug
    /// description: a trace must never interpolate such a value, or it would change when a line moves.
    @Test func nestedPrintingUsesTheDebugDescription() {
        let error = SampleError(.broken, "x")
        #expect(String(describing: [error]).contains("ModuleErrorTests.swift:"))
        #expect(!String(describing: [error.description]).contains("ModuleErrorTests.swift:"))
    }
}
