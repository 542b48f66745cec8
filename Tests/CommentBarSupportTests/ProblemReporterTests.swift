// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import CommentBarTestSupport
import Synchronization
import Testing

/// The one "log once per distinct problem, show it on the bar" mechanism.
@Suite struct ProblemReporterTests {
    @Test func aProblemIsLoggedOnceAndAChangeIsAnnounced() {
        let log = CapturedLog()
        let changes = Mutex(0)
        let reporter = ProblemReporter(log: log.logger, changed: { changes.withLock { $0 += 1 } })
        #expect(reporter.current == nil)
        #expect(reporter.report("port 11190 taken"))
        #expect(!reporter.report("port 11190 taken"), "the same problem again: not logged again")
        #expect(reporter.current == "port 11190 taken")
        #expect(changes.withLock { $0 } == 1, "the same problem again is no change")
        reporter.report(nil)
        #expect(reporter.current == nil)
        #expect(!reporter.report("port 11190 taken"), "a flapping problem is logged once")
        #expect(reporter.report("no token file"))
        #expect(changes.withLock { $0 } == 4)
        #expect(log.lines == ["error: port 11190 taken", "error: no token file"])
    }

    @Test func aForgottenProblemIsNewsAgain() {
        let log = CapturedLog()
        let reporter = ProblemReporter(log: log.logger, level: .warning)
        reporter.report("helper exited")
        reporter.forgetLogged()
        reporter.report(nil)
        reporter.report("helper exited")
        #expect(log.lines == ["warning: helper exited", "warning: helper exited"])
    }
}
