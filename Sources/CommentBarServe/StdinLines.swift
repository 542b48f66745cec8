// SPDX-License-Identifier: GPL-2.0-or-later
import Logging

/// Lines of stdin, read on their own thread (reading blocks); the stream ends at EOF.
public enum StdinLines {
    /// Longer lines are refused: the shim's settings line is at most 32 KiB.
    public static let maxLineBytes = 1 << 20

    public static func stream(log: Logger) -> AsyncStream<String> {
        // Unbounded: every line counts (a dropped {"active":false} would keep a hidden bar drawing),
        // and the shim sends a line only when something changed.
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let started = POSIXIO.startThread {
            while let line = readLine(strippingNewline: true) {
                if line.utf8.count <= maxLineBytes {
                    continuation.yield(line)
                } else {
                    log.error("ignoring a stdin line of \(line.utf8.count) bytes (more than 1 MiB)")
                }
            }
            continuation.finish()
        }
        if !started {
            log.error("cannot start the stdin reader thread")
            continuation.finish()
        }
        return stream
    }
}
