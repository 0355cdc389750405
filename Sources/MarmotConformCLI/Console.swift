// Output that reaches a reader as it is produced. Lines are written straight to the file
// descriptor (no stdio buffer), so a pipe gets each run's line as the run finishes instead of all
// of them when a buffer fills (29 s of silence, then everything). Every line the commands print
// goes through here, so the order on screen is the order written.
import Foundation

enum Console {
    /// One line on stdout, written at once.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// One line on stderr, written at once.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
