// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Glibc
import Logging

/// One line per message, "level: message", for the OBS log, which adds its own
/// timestamp and the shim's prefix. A message is always exactly one line: control
/// characters are written as visible escapes (a CR/LF in a stream id or URL cannot
/// forge a second log line), and a long message is cut once, saying how long it was.
public struct CompactStderrLogHandler: LogHandler {
    /// The shim cuts renderer lines too; this keeps a 30 KB URL one readable line here.
    public static let maxMessageBytes = 1000

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let line = "\(event.level): \(Self.oneLine("\(event.message)"))\n"
        POSIXIO.writeAll(line, fd: STDERR_FILENO)
    }

    /// `text` with controls escaped (`\n`, `\r`, `\t`, `\u{1b}`…) and cut to `maxMessageBytes`.
    public static func oneLine(_ text: String) -> String {
        var out = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}" || TextSanitizer.isBidiControl(scalar):
                piece = "\\u{\(String(scalar.value, radix: 16))}"
            default: piece = String(scalar)
            }
            if bytes + piece.utf8.count > maxMessageBytes {
                return out + "… (\(text.utf8.count) bytes)"
            }
            out += piece
            bytes += piece.utf8.count
        }
        return out
    }
}
