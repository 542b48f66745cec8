// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Logging

/// Logs malformed or cut input from a server to stderr (swift-log) without flooding:
/// at most one message per `interval` (`LogThrottle`), counting what was skipped in between.
package final class InputProblemLog: Sendable {
    let source: String
    private let throttle: LogThrottle
    private let logger: Logger

    package init(source: String, interval: Duration = .seconds(5), logger: Logger = Logger(label: "commentbar.feeds")) {
        self.source = source
        throttle = LogThrottle(interval: interval)
        self.logger = logger
    }

    package var interval: Duration { throttle.interval }

    package func note(_ problem: String) {
        guard let heldBack = throttle.admit() else { return }
        // Only the reason is logged, never the raw line, and cleaned: it may quote server text.
        let reason = String(String.UnicodeScalarView(problem.unicodeScalars.prefix(200).map {
            $0.value < 0x20 || $0.value == 0x7F ? " " : $0
        }))
        let text = heldBack == 0 ? "skipped input from \(source): \(reason)"
            : "skipped \(heldBack + 1) inputs from \(source) since the last report; latest: \(reason)"
        logger.warning("\(text)")
    }
}
