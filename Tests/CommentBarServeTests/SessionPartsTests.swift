// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarServices
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

/// A part added to a session hears what the session hears, in order, and its problem reaches the
/// bar's status line: what any new part (docs/architecture.md, "Session parts") can count on.
final class SessionPartsTests: XCTestCase {
    func testAPartHearsTheLinesTheFeedTheFramesAndTheEnd() async throws {
        let part = RecordingPart()
        let sink = MemoryFrameSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") },
                                   secretStore: nil, extraParts: [part])
        let task = Task { await session.run(messages: messages) }
        input.yield(#"{"settings":{"service":"demo","width":320,"height":120}}"#)
        input.yield(#"{"active":true}"#)
        let deadline = ContinuousClock.now + .seconds(10)
        while part.seen.withLock({ $0.framesPublished == 0 || $0.heardRows.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual(session.notice, "test part: not ready", "the only problem is the part's")
        part.problemText.withLock { $0 = nil }
        XCTAssertNil(session.notice)
        input.finish()
        await task.value
        let seen = part.seen.withLock { $0 }
        XCTAssertEqual(seen.lines, 2, "every stdin line")
        XCTAssertEqual(seen.settingsServices, ["demo"])
        XCTAssertEqual(seen.streams, [["demo"]], "one feed started, with one stream")
        XCTAssertEqual(seen.wrapped, ["demo"], "the feed went through the part before it ran")
        XCTAssertEqual(seen.heardRows.first, "part-1", "the wrapped feed's own comment was heard as a row")
        XCTAssertGreaterThan(seen.barUpdates, 0)
        XCTAssertGreaterThan(seen.framesPublished, 0)
        XCTAssertTrue(seen.stopped)
    }

    /// A part sees the line as the parts before it left it: the secrets' "Forget" without settings
    /// in the line gives the later parts the bar's settings with no credentials.
    func testLaterPartsSeeTheLineAsTheEarlierOnesLeftIt() async throws {
        let part = RecordingPart()
        let sink = MemoryFrameSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") },
                                   actions: RecordingActions(), secretStore: nil, extraParts: [part])
        let task = Task { await session.run(messages: messages) }
        input.yield(#"{"settings":{"service":"demo","width":320,"height":120,"mirrativ_session":"s"}}"#)
        input.yield(#"{"actions":{"forget_secrets":1}}"#)
        input.yield(#"{"actions":{"forget_secrets":2}}"#)
        input.finish()
        await task.value
        XCTAssertEqual(part.seen.withLock { $0.credentials }, [["mirrativ_session": "s"], [:]],
                       "the first line's secret, then the bar's settings again without it after Forget")
    }
}

/// A part that records every call.
final class RecordingPart: SessionPart {
    struct Seen {
        var lines = 0
        var settingsServices: [String] = []
        var credentials: [[String: String]] = []
        var streams: [[String]] = []
        var wrapped: [String] = []
        var heardRows: [String] = []
        var barUpdates = 0
        var framesPublished = 0
        var stopped = false
    }
    let seen = Mutex(Seen())
    let problemText = Mutex<String?>("test part: not ready")

    func apply(_ input: inout SessionInput) {
        let settings = input.message.settings
        seen.withLock {
            $0.lines += 1
            if let settings {
                $0.settingsServices.append(settings.service)
                $0.credentials.append(settings.credentials)
            }
        }
    }

    func wrap(_ feed: any CommentFeed, stream: StreamPlan.Stream) -> any CommentFeed {
        seen.withLock { $0.wrapped.append(stream.service) }
        return FirstSays(inner: feed, line: ChatLine(id: "part-1", user: "part", text: "from the wrapper"))
    }

    func streamsChanged(_ streams: [StreamPlan.Stream]) { seen.withLock { $0.streams.append(streams.map(\.service)) } }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        if let shown { seen.withLock { $0.heardRows.append(shown.id) } }
    }

    func barUpdated(_ state: BarState) { seen.withLock { $0.barUpdates += 1 } }
    func framePublished() { seen.withLock { $0.framesPublished += 1 } }
    var problem: String? { problemText.withLock { $0 } }
    func stop() async { seen.withLock { $0.stopped = true } }
}

/// A feed that says one comment of its own, then runs the feed it wraps.
struct FirstSays: CommentFeed {
    let inner: any CommentFeed
    let line: ChatLine

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        emit(.comment(line))
        await inner.run(emit: emit)
    }
}
