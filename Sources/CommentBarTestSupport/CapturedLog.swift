// SPDX-License-Identifier: GPL-2.0-or-later
import InMemoryLogging
import Logging

/// Every log line a test's logger gets, kept for the assertions in swift-log's own in-memory
/// handler (every level, trace included).
public final class CapturedLog: Sendable {
    private let handler: InMemoryLogHandler

    public init() {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        self.handler = handler
    }

    public var logger: Logger { Logger(label: "test") { [handler] _ in handler } }
    /// "level: message", oldest first.
    public var lines: [String] { handler.entries.map { "\($0.level): \($0.message)" } }
    /// The messages alone, oldest first.
    public var messages: [String] { handler.entries.map { "\($0.message)" } }
}

extension CapturedLog {
    /// The messages logged at `level`, oldest first.
    public func messages(at level: Logger.Level) -> [String] {
        lines.compactMap { line in
            let prefix = "\(level): "
            return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
        }
    }
}
