// SPDX-License-Identifier: GPL-2.0-or-later
import Logging
import Synchronization
import XCTest
@testable import CommentBarNet

/// Bad input from a server is one log line per interval (CommentBarSupport's `LogThrottle`),
/// which counts what it held back.
final class InputProblemLogTests: XCTestCase {
    /// Keeps the messages logged through it.
    struct Recorder: LogHandler {
        let record: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            record.lines.withLock { $0.append(event.message.description) }
        }
    }

    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
    }

    func testOneLinePerIntervalCountingWhatWasHeldBack() async throws {
        let record = Lines()
        let logger = Logger(label: "test") { _ in Recorder(record: record) }
        let problems = InputProblemLog(source: "relay", interval: .milliseconds(300), logger: logger)
        problems.note("a\u{1B}[2J")
        problems.note("b")
        problems.note("c")
        try await Task.sleep(for: .milliseconds(400))
        problems.note("d")
        XCTAssertEqual(record.lines.withLock { $0 }, [
            "skipped input from relay: a [2J",
            "skipped 3 inputs from relay since the last report; latest: d",
        ])
    }
}
