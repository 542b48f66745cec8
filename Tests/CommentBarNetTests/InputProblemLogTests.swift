// SPDX-License-Identifier: GPL-2.0-or-later
import InMemoryLogging
import Logging
import XCTest
@testable import CommentBarNet

/// Bad input from a server is one log line per interval (CommentBarSupport's `LogThrottle`),
/// which counts what it held back.
final class InputProblemLogTests: XCTestCase {
    func testOneLinePerIntervalCountingWhatWasHeldBack() async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logger = Logger(label: "test") { [handler] _ in handler }
        let problems = InputProblemLog(source: "relay", interval: .milliseconds(300), logger: logger)
        problems.note("a\u{1B}[2J")
        problems.note("b")
        problems.note("c")
        try await Task.sleep(for: .milliseconds(400))
        problems.note("d")
        XCTAssertEqual(handler.entries.map { "\($0.message)" }, [
            "skipped input from relay: a [2J",
            "skipped 3 inputs from relay since the last report; latest: d",
        ])
    }
}
