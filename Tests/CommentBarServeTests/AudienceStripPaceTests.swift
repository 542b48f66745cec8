// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
import CommentBarParticipation
@testable import CommentBarRender
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

/// The audience's strip (issue 48) changes at most four times a second however fast votes come,
/// shows exact counts when the storm ends, and an unchanged board makes no new frame.
final class AudienceStripPaceTests: XCTestCase {
    func testThePaceShowsAtOnceAfterAQuietMomentThenEveryQuarterSecond() {
        var pace = StripPace()
        XCTAssertEqual(pace.due(at: 10), 10, "the first change shows at once")
        pace.shown(at: 10)
        XCTAssertEqual(pace.due(at: 10.01), 10.25)
        XCTAssertEqual(pace.due(at: 11), 11, "after a quiet moment, at once again")
    }

    /// What the session's participation part hands to the bar, and when.
    final class Shown: Sendable {
        let views = Mutex<[(time: Double, view: AudienceView)]>([])
        let start = ContinuousClock.now
        func record(_ view: AudienceView) {
            let elapsed = ContinuousClock.now - start
            let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            views.withLock { $0.append((time, view)) }
        }
        var all: [(time: Double, view: AudienceView)] { views.withLock { $0 } }
    }

    /// A session that never runs (its parts are live all the same), and its participation part.
    private func makeSession(width: Int = 320, height: Int = 120) throws -> (ServeSession, ParticipationPart) {
        let session = ServeSession(sink: MemoryFrameSink(width: width, height: height), log: Logger(label: "test"),
                                   fetch: { _ in .failed("no network") }, secretStore: nil)
        return (session, try XCTUnwrap(session.parts.lazy.compactMap { $0 as? ParticipationPart }.first))
    }

    private let origin = BarState.Origin(index: 0, count: 1, name: "twitch", service: "twitch", badge: .plain)

    private func vote(_ part: ParticipationPart, viewer: Int, option: Int) {
        let line = ChatLine(id: "v\(viewer)", user: "viewer\(viewer)", text: "!vote \(option)")
        part.heard(.comment(line), shown: nil, origin: origin)
    }

    func testAThousandVotesInASecondLayTheStripOutAtMostFourTimesASecond() async throws {
        let (session, part) = try makeSession(width: 1280, height: 360)
        let shown = Shown()
        part.showOnBar(shown.record)
        part.polls.start(try PollQuestion(question: "Which map?", options: ["Dust", "Mirage", "Inferno"]))
        try await Task.sleep(for: .milliseconds(400))
        let before = shown.all.count
        XCTAssertEqual(shown.all.last?.view.poll?.total, 0, "the new poll shows")

        // 1,000 viewers vote in one second: ten every 10 ms.
        let started = ContinuousClock.now
        for batch in 0..<100 {
            for index in 0..<10 { vote(part, viewer: batch * 10 + index, option: (batch * 10 + index) % 3 + 1) }
            try await Task.sleep(until: started + .milliseconds(10 * (batch + 1)))
        }
        try await Task.sleep(for: .milliseconds(600))
        let storm = Array(shown.all.dropFirst(before))
        let times = storm.map(\.time)
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, 0.24, "two strips within a quarter second: \(times)")
        }
        for index in times.indices.dropFirst(4) {
            XCTAssertGreaterThanOrEqual(times[index] - times[index - 4], 0.96, "five strips within a second: \(times)")
        }
        XCTAssertGreaterThanOrEqual(storm.count, 2, "the counts moved during the storm")
        XCTAssertEqual(storm.last?.view.poll?.options.map(\.votes), [334, 333, 333], "exact counts at the end")

        // Each view the session handed on is one layout of the strip, and the same view again is no frame.
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        let pool = MemoryFramePool(width: 1280, height: 360)
        var state = BarState()
        state.apply(.status(.live))
        var laidOut = 0
        for (_, view) in storm {
            state.audience = view
            XCTAssertTrue(renderer.render(state, now: 1000, into: pool))
            laidOut += renderer.lastWork.audienceStripsLaidOut
        }
        XCTAssertEqual(laidOut, storm.count)
        XCTAssertLessThanOrEqual(laidOut, 4 * Int((times.last ?? 0) - (times.first ?? 0) + 1), "\(times)")
        XCTAssertFalse(renderer.render(state, now: 1000, into: pool), "an unchanged board: no new frame")
        XCTAssertEqual(renderer.lastWork.audienceStripsLaidOut, 0)

        // Votes that change nothing (the same viewers again, chat that is no vote) hand on nothing.
        let settled = shown.all.count
        for index in 0..<50 { vote(part, viewer: index, option: 1) }
        part.heard(.comment(ChatLine(id: "chat", user: "someone", text: "gg")), shown: nil, origin: origin)
        try await Task.sleep(for: .milliseconds(600))
        XCTAssertEqual(shown.all.count, settled, "no change, nothing handed to the bar")
        await part.stop()
        withExtendedLifetime(session) {}
    }

    func testATimedPollCountsDownEverySecondThenStaysClosedUntilDismissed() async throws {
        let (session, part) = try makeSession()
        let shown = Shown()
        part.showOnBar(shown.record)
        part.polls.start(try PollQuestion(question: "Quick?", options: ["yes", "no"]), seconds: 2)
        try await Task.sleep(for: .milliseconds(2600))
        let seconds = shown.all.compactMap { $0.view.poll.map { $0.closed ? -1 : $0.secondsLeft ?? -2 } }
        XCTAssertEqual(seconds, [2, 1, -1], "2 s left, 1 s left, closed, with no vote to wake it")
        XCTAssertTrue(part.polls.dismiss())
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertNil(shown.all.last?.view.poll, "dismissed: the result leaves the bar")
        await part.stop()
        withExtendedLifetime(session) {}
    }

    /// A poll that counts nobody new says so on the bar's status (and in the log), and a new poll clears it.
    func testAFullPollIsALineOnTheStatus() async throws {
        let (session, part) = try makeSession()
        part.polls.start(try PollQuestion(question: "Which?", options: ["A", "B"]))
        for viewer in 0..<Poll.maxVoters { vote(part, viewer: viewer, option: 1) }
        let deadline = ContinuousClock.now + .seconds(5)
        while part.problem == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertEqual(part.problem, "poll: 100000 voters, the most one poll counts: new voters are not counted")
        XCTAssertEqual(session.notice, part.problem, "the bar's status line")
        part.polls.start(try PollQuestion(question: "Again?", options: ["A", "B"]))
        while part.problem != nil, ContinuousClock.now < deadline + .seconds(5) { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertNil(part.problem, "a new poll takes voters again")
        await part.stop()
    }

    func testTheSessionPutsTheViewIntoTheBarsState() async throws {
        let (session, part) = try makeSession()
        part.queue.open(rules: JoinRules())
        let deadline = ContinuousClock.now + .seconds(5)
        while session.shared.withLock({ $0.state.audience.queue == nil }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual(session.shared.withLock { $0.state.audience.queue?.waiting }, 0, "the open queue is on the bar")
        await part.stop()
    }
}
