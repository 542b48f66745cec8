// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
import CommentBarSpeech
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

/// A frame sink in memory: the frames, statuses and heartbeats a session produced.
final class MemoryFrameSink: FrameSink, @unchecked Sendable {
    // @unchecked: the frame loop is the only writer of the pool; the rest is behind `recorded`.
    let pool: MemoryFramePool
    struct Recorded {
        var statuses: [(SinkStatus, String)] = []
        var heartbeats = 0
    }
    let recorded = Mutex(Recorded())

    init(width: Int, height: Int) { pool = MemoryFramePool(width: width, height: height) }

    var width: Int { pool.width }
    var height: Int { pool.height }
    func backBuffer() -> FrameBuffer { pool.backBuffer() }
    var backSlot: Int { pool.backSlot }
    func publish() { pool.publish() }
    func lastPublished() -> FrameBuffer? { pool.lastPublished() }
    func setStatus(_ status: SinkStatus, detail: String) { recorded.withLock { $0.statuses.append((status, detail)) } }
    func makeHeartbeat() -> @Sendable () -> Void { { [self] in self.recorded.withLock { $0.heartbeats += 1 } } }
}

final class ServeSessionTests: XCTestCase {
    private func settingsLine(_ extra: String = "") -> String {
        #"{"settings":{"service":"demo","width":320,"height":120"# + extra + "}}"
    }

    /// Drives a session with `lines`, waits until `until` holds (or 10 s), then closes stdin.
    private func run(_ lines: [String], fetch: @escaping RemoteImageFetches.Fetch = { _ in .failed("no network") },
                     until: @escaping (MemoryFrameSink) -> Bool) async -> MemoryFrameSink {
        let sink = MemoryFrameSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        for line in lines { input.yield(line) }
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: fetch)
        let task = Task { await session.run(messages: messages) }
        let deadline = ContinuousClock.now + .seconds(10)
        while !until(sink), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        input.finish()
        await task.value  // returns once stdin is closed
        return sink
    }

    /// A history row (a platform's recent chat on joining) is drawn and handed on with its row, so
    /// the control page and the event API list it; only speech leaves it out.
    func testAHistoryRowIsHandedOnWithItsRow() {
        var state = BarState()
        let origin = BarState.Origin(index: 0, count: 1, name: "YouTube", service: "youtube", badge: .plain)
        let earlier = ChatLine(id: "h1", user: "viewer", text: "said before the bar started", isHistory: true)
        let (_, shown) = RowMapping.apply(.comment(earlier), from: origin, to: &state)
        XCTAssertEqual(shown?.id, "h1")
        XCTAssertEqual(shown?.isHistory, true)
    }

    func testDemoSettingsMakeFramesStatusAndHeartbeats() async {
        let sink = await run([settingsLine(), #"{"active":true}"#]) { $0.pool.publishedCount > 0 }
        XCTAssertGreaterThan(sink.pool.publishedCount, 0)
        let recorded = sink.recorded.withLock { $0 }
        XCTAssertEqual(recorded.statuses.first?.0, .starting)
        XCTAssertGreaterThan(recorded.heartbeats, 0)
    }

    func testHiddenBarMakesNoFramesAndSaysPaused() async {
        let sink = await run([#"{"active":false}"#, settingsLine()]) { sink in
            sink.recorded.withLock { $0.statuses.contains { $0.0 == .paused } }
        }
        XCTAssertEqual(sink.pool.publishedCount, 0)
    }

    func testBadLinesAreSkippedAndABadServiceIsAnErrorStatus() async {
        let sink = await run(["not json", #"{"settings":{"service":"nope","width":320,"height":120}}"#]) { sink in
            sink.recorded.withLock { $0.statuses.contains { $0.0 == .error } }
        }
        let error = sink.recorded.withLock { $0.statuses.first { $0.0 == .error } }
        XCTAssertTrue(error?.1.hasPrefix("unknown service") ?? false, "\(String(describing: error))")
    }

    /// A feed's https avatar is fetched once, off the frame loop, and a frame follows its arrival.
    func testRemoteAvatarIsFetchedOnceAndRedrawsWhenItArrives() async throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("avatar-\(UUID()).jsonl")
        try Data(#"{"type":"avatar","url":"https://cdn.example/a.png"}"#.utf8).write(to: events)
        defer { try? FileManager.default.removeItem(at: events) }
        let picture = Array(try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/images/bar-demo.png").standardized))
        let requests = Mutex<[String]>([])
        let framesBeforeArrival = Mutex<Int?>(nil)
        let sinkBox = Mutex<MemoryFrameSink?>(nil)
        let sink = await run([#"{"settings":{"service":"file","stream_id":"\#(events.path)","width":320,"height":120}}"#],
                             fetch: { url in
                                 requests.withLock { $0.append(url) }
                                 try? await Task.sleep(for: .milliseconds(300))
                                 framesBeforeArrival.withLock { $0 = sinkBox.withLock { $0?.pool.publishedCount } }
                                 return .loaded(picture)
                             }) { sink in
            sinkBox.withLock { $0 = sink }
            guard let before = framesBeforeArrival.withLock({ $0 }) else { return false }
            return sink.pool.publishedCount > before
        }
        XCTAssertEqual(requests.withLock { $0 }, ["https://cdn.example/a.png"])
        let before = try XCTUnwrap(framesBeforeArrival.withLock { $0 })
        XCTAssertGreaterThan(sink.pool.publishedCount, before, "the arrival made a new frame")
    }

    func testStatusDetailNeverRepeatsTheStateName() {
        XCTAssertEqual(ServeSession.sinkStatus(.reconnecting(reason: "connection refused")).1, "connection refused")
        XCTAssertEqual(ServeSession.sinkStatus(.error(message: "bad channel")).1, "bad channel")
        XCTAssertEqual(ServeSession.sinkStatus(.live).1, "")
    }

    func testCommandsDecodeAndIgnoreUnknownKeys() throws {
        XCTAssertEqual(try StdinMessage.decode(line: #"{"active":true,"obs":{"streaming":true}}"#).active, true)
        XCTAssertEqual(try StdinMessage.decode(line: settingsLine()).settings?.width, 320)
        XCTAssertEqual(try StdinMessage.decode(line: #"{"future":{"x":1}}"#), StdinMessage())
        XCTAssertThrowsError(try StdinMessage.decode(line: "[1]"))
        XCTAssertThrowsError(try StdinMessage.decode(line: #"{"speech":"skip"}"#))
    }

    /// Every kind of line decodes into its typed part, all from one parse of the line.
    func testEveryKindDecodes() throws {
        let message = try StdinMessage.decode(line: #"{"settings":{"width":320,"speech":true,"speech_engine":"voicevox","#
            + #""speech_rate":120},"active":false,"obs":{"streaming":true,"locale":"ja-JP"},"#
            + #""speech":{"skip":2,"paused":true},"actions":{"pin_newest":3,"unpin":1,"open_control":0}}"#)
        XCTAssertEqual(message.settings?.width, 320)
        XCTAssertEqual(message.speechSettings?.enabled, true)
        XCTAssertEqual(message.speechSettings?.engine, .voicevox)
        XCTAssertEqual(message.speechSettings?.rate, 120)
        XCTAssertEqual(message.active, false)
        XCTAssertEqual(message.obs?.streaming, true)
        XCTAssertEqual(message.obs?.locale, "ja-JP")
        XCTAssertEqual(message.speech, SpeechControl(skip: 2, paused: true))
        XCTAssertEqual(message.actions, ActionCounters(pinNewest: 3, unpin: 1, openControl: 0))
        // A settings line alone carries no hotkeys, and a hotkey line no settings.
        let hotkey = try StdinMessage.decode(line: #"{"speech":{"skip":1}}"#)
        XCTAssertNil(hotkey.settings)
        XCTAssertNil(hotkey.speechSettings)
        XCTAssertEqual(hotkey.speech, SpeechControl(skip: 1, paused: false))
    }

    func testALocaleThatIsNotALanguageTagIsNotKnown() throws {
        for bad in [#""ja JP""#, #""<script>""#, "5", #""""#, "\"" + String(repeating: "a", count: 36) + "\""] {
            let message = try StdinMessage.decode(line: #"{"obs":{"locale":"# + bad + "}}")
            XCTAssertNil(message.obs?.locale, bad)
        }
        XCTAssertEqual(try StdinMessage.decode(line: #"{"obs":{"locale":"zh_Hant-TW"}}"#).obs?.locale, "zh_Hant-TW")
    }

    /// A counter acts once per increase, never on a repeat; the first value is the baseline (the
    /// shim sends its newest line again to a renderer it restarts).
    func testActionsActOncePerIncreaseAndNeverOnARepeat() {
        var tracker = ActionTracker()
        XCTAssertEqual(tracker.actions(for: ActionCounters(pinNewest: 4, unpin: 2, openControl: 1)), [])
        XCTAssertEqual(tracker.actions(for: ActionCounters(pinNewest: 4, unpin: 2, openControl: 1)), [])
        XCTAssertEqual(tracker.actions(for: ActionCounters(pinNewest: 5, unpin: 2, openControl: 1)), [.pinNewest])
        XCTAssertEqual(tracker.actions(for: ActionCounters(pinNewest: 5, unpin: 2, openControl: 1)), [])
        // Two presses folded into one line: one action. A missing counter changes nothing.
        XCTAssertEqual(tracker.actions(for: ActionCounters(pinNewest: 7, unpin: 3)), [.pinNewest, .unpin])
        XCTAssertEqual(tracker.actions(for: ActionCounters(openControl: 2)), [.openControl])
        // A counter that went down (a new source) is a new baseline, not a press.
        XCTAssertEqual(tracker.actions(for: ActionCounters(pinNewest: 0, unpin: 0, openControl: 0)), [])
        XCTAssertEqual(tracker.actions(for: ActionCounters(pinNewest: 1, unpin: 0, openControl: 0)), [.pinNewest])
    }

    /// The session hands each kind to its consumer typed: speech gets its `SpeechControl` (it
    /// never sees the line), the action handler one call per press.
    func testTheSessionHandsEachKindToItsConsumer() async {
        let sink = MemoryFrameSink(width: 320, height: 120)
        let handler = RecordingActions()
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        for line in [settingsLine(), #"{"actions":{"pin_newest":1,"unpin":0,"open_control":0}}"#,
                     #"{"speech":{"skip":3,"paused":true}}"#,
                     #"{"actions":{"pin_newest":2,"unpin":0,"open_control":0}}"#,
                     #"{"actions":{"pin_newest":2,"unpin":0,"open_control":0}}"#,
                     #"{"actions":{"pin_newest":2,"unpin":0,"open_control":1}}"#] {
            input.yield(line)
        }
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") },
                                   actions: handler)
        let task = Task { await session.run(messages: messages) }
        let deadline = ContinuousClock.now + .seconds(10)
        while handler.performed.withLock({ $0.count }) < 2, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        input.finish()
        await task.value
        XCTAssertEqual(handler.performed.withLock { $0 }, [.pinNewest, .openControl])
        XCTAssertEqual(session.speech.hotkeys, SpeechControl(skip: 3, paused: true))
    }
}

final class RecordingActions: BarActionHandler {
    let performed = Mutex<[BarAction]>([])
    func perform(_ action: BarAction) { performed.withLock { $0.append(action) } }
}

final class LogLineTests: XCTestCase {
    func testEveryMessageIsOneLineWithControlsVisible() {
        XCTAssertEqual(CompactStderrLogHandler.oneLine("feed: twitch a\r\nHost: evil\u{1b}[2J"),
                       "feed: twitch a\\r\\nHost: evil\\u{1b}[2J")
        XCTAssertEqual(CompactStderrLogHandler.oneLine("さくら 🌸"), "さくら 🌸")
    }

    func testALongValueIsCutOnceSayingItsLength() {
        let url = "wss://relay.example/" + String(repeating: "a", count: 30_000)
        let line = CompactStderrLogHandler.oneLine("feed: websocket \(url)")
        XCTAssertLessThanOrEqual(line.utf8.count, CompactStderrLogHandler.maxMessageBytes + 40)
        XCTAssertTrue(line.hasSuffix("… (30036 bytes)"), String(line.suffix(40)))
        XCTAssertFalse(line.contains("\n"))
    }
}
