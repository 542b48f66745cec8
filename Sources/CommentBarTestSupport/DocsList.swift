// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// A list in the docs that a test keeps the same as a table in the code (the control server's and
/// the OneComme server's routes): the lines between two marker lines of a file under `docs/`.
public enum DocsList {
    public enum Problem: Error, CustomStringConvertible {
        case noMarker(file: String, marker: String)
        public var description: String {
            switch self {
            case .noMarker(let file, let marker): return "docs/\(file) has no \(marker)"
            }
        }
    }

    /// The lines of `docs/<file>` strictly between `start` and the next `end`.
    public static func lines(in file: String, between start: String, and end: String,
                             repository: String = DocsList.repository()) throws -> [String] {
        let text = try String(contentsOfFile: repository + "/docs/" + file, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let first = lines.firstIndex(of: start) else { throw Problem.noMarker(file: file, marker: start) }
        guard let last = lines[first...].firstIndex(of: end) else { throw Problem.noMarker(file: file, marker: end) }
        return Array(lines[(first + 1)..<last])
    }

    /// The repository this file was built from (Sources/CommentBarTestSupport/ is two folders down).
    public static func repository(_ here: String = #filePath) -> String {
        URL(fileURLWithPath: here).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
