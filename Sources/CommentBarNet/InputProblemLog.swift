// SPDX-License-Identifier: GPL-2.0-or-later
import Logging
import Synchronization

/// Logs malformed or cut input from a server to stderr (swift-log) without flooding:
/// at most one message per `interval`, counting what was skipped in between.
package final class InputProblemLog: Sendable {
    private struct State {
        var lastLogged: ContinuousClock.Instant?
        var unreported = 0
    }

    let source: String
    let interval: Duration
    private let logger: Logger
    private let state = Mutex(State())

    package init(source: String, interval: Duration = .seconds(5), logger: Logger = Logger(label: "commentbar.feeds")) {
        self.source = source
        self.interval = interval
        self.logger = logger
    }

    package func note(_ problem: String) {
        let now = ContinuousClock.now
        let count: Int? = state.withLock { state in
            state.unreported += 1
            if let last = state.lastLogged, now - last < interval { return nil }
            state.lastLogged = now
            defer { state.unreported = 0 }
            return state.unreported
        }
        guard let count else { return }
        // Only the reason is logged, never the raw line, and cleaned: it may quote server text.
        let reason = String(String.UnicodeScalarView(problem.unicodeScalars.prefix(200).map {
            $0.value < 0x20 || $0.value == 0x7F ? " " : $0
        }))
        let text = count == 1 ? "skipped input from \(source): \(reason)"
            : "skipped \(count) inputs from \(source) since the last report; latest: \(reason)"
        logger.warning("\(text)")
    }
}
