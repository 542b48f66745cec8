// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import CommentBarSettings
import FoundationEssentials
import XCTest

/// The flow between the feeds and the bar, on a clock the tests move by hand.
final class ChatFlowTests: XCTestCase {
    private let youtube = BarState.Origin(index: 0, count: 1, name: "YouTube", service: "youtube", badge: .plain)
    private let twitch = BarState.Origin(index: 1, count: 2, name: "Twitch", service: "twitch", badge: .plain)

    private func comment(_ id: String, sent: Double? = nil, user: String = "viewer", history: Bool = false) -> FeedEvent {
        .comment(ChatLine(id: id, user: user, text: "message \(id)", sentAt: sent, isHistory: history))
    }

    private func ids(_ releases: [ChatFlow.Release]) -> [String] {
        releases.compactMap { release in
            if case .comment(let line) = release.event { return line.id }
            return nil
        }
    }

    /// Runs the flow's clock from `from` to `to` in 10 ms steps; what is released, with when.
    private func run(_ flow: inout ChatFlow, from: Double, to: Double) -> [(id: String, at: Double)] {
        var shown: [(String, Double)] = []
        var now = from
        while now <= to + 1e-9 {
            shown += ids(flow.release(now: now)).map { ($0, now) }
            now += 0.01
        }
        return shown
    }

    func testABurstIsSpreadOverThePollInOrderAndEndsBeforeTheNextPoll() {
        var flow = ChatFlow()
        // A first poll (its burst shows at once: nothing to fill yet), then one 5 s later with
        // ten messages sent 0.45 s apart.
        XCTAssertEqual(ids(flow.receive(comment("old", sent: 995), from: youtube, now: 0)), ["old"])
        var released: [ChatFlow.Release] = []
        for index in 0..<10 {
            released += flow.receive(comment("m\(index)", sent: 1000 + Double(index) * 0.45), from: youtube, now: 5)
        }
        XCTAssertEqual(ids(released), ["m0"], "the first of a burst shows at once")
        let shown = run(&flow, from: 5, to: 10)
        XCTAssertEqual(shown.map(\.id), (1..<10).map { "m\($0)" }, "in order")
        for (index, item) in shown.enumerated() {
            XCTAssertEqual(item.at, 5 + Double(index + 1) * 0.45, accuracy: 0.011, "by its own time")
        }
        XCTAssertLessThan(shown.last?.at ?? 99, 10, "before the next poll")
        XCTAssertNil(flow.nextDue, "nothing waits: no wake-up")
    }

    func testHistoryOrGoingLiveStartsTheIntervalTheFirstBurstFills() {
        var flow = ChatFlow()
        _ = flow.receive(comment("h", sent: 50, history: true), from: youtube, now: 0)
        XCTAssertEqual(ids(flow.release(now: 1)), ["h"])
        _ = flow.receive(comment("a", sent: 100), from: youtube, now: 4)
        _ = flow.receive(comment("b", sent: 102), from: youtube, now: 4)
        XCTAssertEqual(flow.nextDue ?? 0, 6, accuracy: 1e-9, "spread over the 4 s since the history came")
        var live = ChatFlow()
        _ = live.receive(.status(.live), from: twitch, now: 10)
        _ = live.receive(comment("a", sent: 100), from: twitch, now: 13)
        _ = live.receive(comment("b", sent: 101), from: twitch, now: 13)
        XCTAssertEqual(live.nextDue ?? 0, 14, accuracy: 1e-9, "spread over the 3 s since it went live")
    }

    func testABurstCoveringMoreThanThePollIsSqueezedAndTheNextPollEndsItsWait() {
        var flow = ChatFlow()
        _ = flow.receive(comment("first", sent: 0), from: youtube, now: 100)
        // 2 s later, messages covering 20 s of send times: squeezed into the 2 s.
        for index in 0..<5 { _ = flow.receive(comment("b\(index)", sent: 100 + Double(index) * 5), from: youtube, now: 102) }
        XCTAssertEqual(flow.nextDue ?? 0, 102.5, accuracy: 1e-9)
        let early = run(&flow, from: 102, to: 103.05)
        XCTAssertEqual(early.map(\.id), ["b1", "b2"])
        // The next poll comes early (1.1 s later): what still waits is shown at once, before it.
        let next = flow.receive(comment("c0", sent: 130), from: youtube, now: 103.1)
        XCTAssertEqual(ids(next), ["b3", "b4", "c0"])
    }

    func testCommentsWithoutTimesAndGiftsPassAtOnce() {
        var flow = ChatFlow()
        XCTAssertEqual(ids(flow.receive(comment("a"), from: twitch, now: 1)), ["a"])
        let gift = FeedEvent.gift(ChatLine(id: "g", user: "u", text: "", kind: .gift(name: "Bits", count: 5), sentAt: 0))
        XCTAssertEqual(flow.receive(gift, from: twitch, now: 2).map(\.event), [gift])
        XCTAssertNil(flow.nextDue)
    }

    func testPacingOffShowsABurstAtOnce() {
        var flow = ChatFlow(options: .init(paceBursts: false))
        _ = flow.receive(comment("a", sent: 0), from: youtube, now: 0)
        var released: [ChatFlow.Release] = []
        for index in 0..<3 { released += flow.receive(comment("b\(index)", sent: Double(index)), from: youtube, now: 5) }
        XCTAssertEqual(ids(released), ["b0", "b1", "b2"])
    }

    func testTheDelayHoldsCommentsAndADeletionRemovesThemUnseen() {
        var flow = ChatFlow(options: .init(paceBursts: true, delaySeconds: 5))
        XCTAssertEqual(ids(flow.receive(comment("kept"), from: twitch, now: 10)), [])
        XCTAssertEqual(ids(flow.receive(comment("deleted"), from: twitch, now: 10.5)), [])
        XCTAssertEqual(ids(flow.receive(comment("banned", user: "Troll"), from: twitch, now: 11)), [])
        XCTAssertEqual(ids(flow.receive(comment("cleared-elsewhere"), from: youtube, now: 11)), [])
        // The deletions pass on (a row already shown goes too) and take the waiting ones with them.
        XCTAssertEqual(flow.receive(.delete(id: "deleted"), from: twitch, now: 12.5).map(\.event), [.delete(id: "deleted")])
        _ = flow.receive(.deleteUser(user: "troll"), from: twitch, now: 12.6)
        XCTAssertEqual(flow.nextDue ?? 0, 15, accuracy: 1e-9, "the wake-up is at the next due time")
        // A gift and the clock's start are never delayed.
        let gift = FeedEvent.gift(ChatLine(id: "g", user: "u", text: "", kind: .gift(name: "Bits", count: 1)))
        XCTAssertEqual(flow.receive(gift, from: twitch, now: 13).map(\.event), [gift])
        XCTAssertEqual(flow.receive(.start(time: 5), from: twitch, now: 13).map(\.event), [.start(time: 5)])
        let shown = run(&flow, from: 13, to: 20)
        XCTAssertEqual(shown.map(\.id), ["kept", "cleared-elsewhere"])
        XCTAssertEqual(shown[0].at, 15, accuracy: 0.011, "5 s after it arrived")
        XCTAssertEqual(shown[1].at, 16, accuracy: 0.011)
    }

    func testAClearRemovesOnlyItsStreamsWaitingComments() {
        var flow = ChatFlow(options: .init(delaySeconds: 3))
        _ = flow.receive(comment("t"), from: twitch, now: 0)
        _ = flow.receive(comment("y"), from: youtube, now: 0)
        _ = flow.receive(.clear, from: twitch, now: 1)
        XCTAssertEqual(ids(flow.release(now: 3)), ["y"])
    }

    func testHistoryShowsTogetherAtOnceEvenWithADelay() {
        var flow = ChatFlow(options: .init(delaySeconds: 10))
        let released = (0..<3).flatMap { flow.receive(comment("h\($0)", sent: Double($0), history: true), from: youtube, now: 0) }
        XCTAssertEqual(ids(released), [], "gathered for a moment, so one frame shows it all")
        XCTAssertEqual(flow.nextDue ?? 0, ChatFlow.historyGathering, accuracy: 1e-9)
        XCTAssertEqual(ids(flow.release(now: ChatFlow.historyGathering)), ["h0", "h1", "h2"], "not held by the delay")
    }

    func testADelayedCommentReSentTakesTheWaitingOnesPlace() {
        var flow = ChatFlow(options: .init(delaySeconds: 2))
        _ = flow.receive(comment("x"), from: twitch, now: 0)
        _ = flow.receive(.comment(ChatLine(id: "x", user: "", text: "[message hidden]")), from: twitch, now: 1)
        let shown = flow.release(now: 2)
        XCTAssertEqual(shown.count, 1)
        if case .comment(let line) = shown.first?.event { XCTAssertEqual(line.text, "[message hidden]") } else { XCTFail() }
    }

    func testABacklogNeverGrowsPastItsBound() {
        var flow = ChatFlow()
        _ = flow.receive(comment("first", sent: 0), from: youtube, now: 0)
        var released = 0
        let count = ChatFlow.maxWaitingPerStream + 40
        for index in 0..<count {
            released += ids(flow.receive(comment("b\(index)", sent: Double(index) * 0.01), from: youtube, now: 8)).count
        }
        XCTAssertLessThanOrEqual(flow.waitingCount, ChatFlow.maxWaitingPerStream)
        XCTAssertEqual(released + flow.waitingCount, count)
    }

    func testAFloodBehindALongDelayIsBoundedAndNeverShownEarly() {
        var flow = ChatFlow(options: .init(delaySeconds: 30))
        for index in 0..<(ChatFlow.maxWaiting + 100) {
            XCTAssertEqual(flow.receive(comment("f\(index)"), from: twitch, now: Double(index) * 0.001), [])
        }
        XCTAssertEqual(flow.waitingCount, ChatFlow.maxWaiting)
        XCTAssertEqual(ids(flow.release(now: 30.1)).first, "f100", "the oldest beyond the bound were dropped, not shown")
    }

    func testHistoryIsNeverAFirstMessage() {
        var state = BarState()
        state.filters = ChatFilters(highlightFirstMessages: true)
        state.apply(.comment(ChatLine(id: "1", user: "old", text: "earlier", isHistory: true)))
        state.apply(.comment(ChatLine(id: "2", user: "old", text: "now")))
        state.apply(.comment(ChatLine(id: "3", user: "new", text: "hello")))
        XCTAssertEqual(state.lines.map { $0.highlight != nil }, [false, false, true])
    }

    func testTheWireFormKeepsSendTimesAndHistory() throws {
        let line = #"{"type":"comment","id":"a","user":"u","text":"t","sent":1714557600.25,"history":true}"#
        guard case .event(.comment(let parsed), _) = try FeedEventJSON.parse(line) else { return XCTFail() }
        XCTAssertEqual(parsed.sentAt, 1714557600.25)
        XCTAssertTrue(parsed.isHistory)
        XCTAssertEqual(FeedEventJSON.encode(.event(.comment(parsed), at: nil)),
                       #"{"history":true,"id":"a","sent":1714557600.25,"text":"t","type":"comment","user":"u"}"#)
        XCTAssertThrowsError(try FeedEventJSON.parse(#"{"type":"comment","id":"a","text":"t","sent":-1}"#))
    }
}

final class ViewersByStreamTests: XCTestCase {
    func testEachStreamKeepsItsOwnCountBesideItsService() {
        var state = BarState()
        let twitch = BarState.Origin(index: 0, count: 2, name: "Twitch", service: "twitch", badge: .plain)
        let youtube = BarState.Origin(index: 1, count: 2, name: "YouTube", service: "youtube", badge: .plain)
        XCTAssertEqual(state.viewersByStream, [])
        state.apply(.viewers(12), from: youtube)
        XCTAssertEqual(state.viewersByStream, [.init(service: "", viewers: nil), .init(service: "youtube", viewers: 12)],
                       "a stream is known by its first event (every feed says it is connecting first)")
        state.apply(.status(.connecting), from: twitch)
        XCTAssertEqual(state.viewersByStream, [.init(service: "twitch", viewers: nil), .init(service: "youtube", viewers: 12)])
        state.apply(.viewers(30), from: twitch)
        XCTAssertEqual(state.viewersByStream.map(\.viewers), [30, 12])
        XCTAssertEqual(state.viewers, 42, "the sum stays for viewers_mode sum")
        var single = BarState()
        single.apply(.viewers(5), from: BarState.Origin(index: 0, count: 1, name: "YouTube", service: "youtube", badge: .plain))
        XCTAssertEqual(single.viewersByStream, [], "one stream: its count is the header's count")
    }

    func testSettingsReadTheFlowAndViewersKeys() throws {
        let json = #"{"pace_bursts":false,"delay_seconds":99,"viewers_mode":"each"}"#
        let settings = try BarSettings.decode(json: Data(json.utf8))
        XCTAssertFalse(settings.paceBursts)
        XCTAssertEqual(settings.delaySeconds, 30, "clamped to the table's range")
        XCTAssertEqual(settings.viewersMode, .each)
        XCTAssertEqual(settings.flowOptions, ChatFlow.Options(paceBursts: false, delaySeconds: 30))
        let defaults = try BarSettings.decode(json: Data(#"{"viewers_mode":"per-stream"}"#.utf8))
        XCTAssertTrue(defaults.paceBursts)
        XCTAssertEqual(defaults.delaySeconds, 0)
        XCTAssertEqual(defaults.viewersMode, .sum, "an unknown mode is the default")
    }

    /// The moderation delay's bounds are the settings table's range for `delay_seconds`.
    func testTheDelayIsBoundedByTheTable() throws {
        let row = try XCTUnwrap(cb_setting_find("delay_seconds")).pointee
        XCTAssertEqual(ChatFlow.Options(delaySeconds: 1e9).delaySeconds, Double(row.max))
        XCTAssertEqual(ChatFlow.Options(delaySeconds: -5).delaySeconds, Double(row.min))
        XCTAssertEqual(ChatFlow.Options(delaySeconds: .nan).delaySeconds, max(0, Double(row.min)))
    }
}
