// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import XCTest

/// The audience's strip (issue 48): the poll, the queue and the winner in the bar, the box and
/// the ticker against committed images (a Japanese poll too), its text at 4.5:1 on every theme,
/// and laid out once while it shows the same. Regenerate the images after a deliberate change
/// with `UPDATE_GOLDEN=1` and look at them.
final class AudienceStripRenderingTests: XCTestCase {
    typealias Poll = AudienceView.PollView

    static let options = [Poll.Option(text: "Dust II", votes: 12), Poll.Option(text: "Mirage", votes: 30),
                          Poll.Option(text: "Inferno", votes: 7)]
    static let openPoll = AudienceView(poll: Poll(question: "Which map next?", options: options, secondsLeft: 42))
    static let closedPoll = AudienceView(poll: Poll(question: "Which map next?", options: options, closed: true))
    static let queue = AudienceView(queue: AudienceView.QueueView(
        playing: ["たろう", "Alice"], next: ["bob", "はなこ", "carol_99", "dave", "eve", "frank"], waiting: 12))
    static let winner = AudienceView(winner: AudienceView.WinnerView(name: "Lucky Viewer", platform: "twitch"))
    static let japanesePoll = AudienceView(poll: Poll(
        question: "次に遊ぶゲームはどれ？", options: [Poll.Option(text: "マリオカート", votes: 18),
                                              Poll.Option(text: "スプラトゥーン", votes: 25),
                                              Poll.Option(text: "ぷよぷよ", votes: 4)], secondsLeft: 95))

    static let layouts: [(name: String, json: String, width: Int, height: Int)] = [
        ("bar", "{}", 1280, 360), ("box", #"{"layout":"box"}"#, 480, 900), ("ticker", #"{"layout":"ticker"}"#, 1280, 72),
    ]

    /// The pool is returned too: the frame is its memory.
    func render(_ view: AudienceView, json: String, width: Int, height: Int) throws
        -> (BarRenderer, FrameBuffer, MemoryFramePool) {
        var (state, now) = DemoScript.timeline.state(at: 20)
        state.audience = view
        let settings = try lookSettings(json, width: width, height: height)
        let renderer = BarRenderer(settings: settings, width: width, height: height)
        let pool = MemoryFramePool(width: width, height: height)
        renderer.render(state, now: now, into: pool)
        return (renderer, try XCTUnwrap(pool.newestFrame), pool)
    }

    func testThePollTheQueueAndTheWinnerInEachLayout() throws {
        let views = [("poll-open", Self.openPoll), ("poll-closed", Self.closedPoll), ("queue", Self.queue),
                     ("winner", Self.winner)]
        for (name, view) in views {
            for layout in Self.layouts {
                let (renderer, frame, pool) = try render(view, json: layout.json, width: layout.width, height: layout.height)
                XCTAssertNotNil(renderer.drawnElements.first { $0.name == "audience strip" }, "\(name) in \(layout.name)")
                try assertMatchesGolden(frame, named: "audience-\(name)-\(layout.name)-\(layout.width)x\(layout.height).png")
                withExtendedLifetime(pool) {}
            }
        }
    }

    func testAJapanesePoll() throws {
        let (_, frame, pool) = try render(Self.japanesePoll, json: "{}", width: 1280, height: 360)
        try assertMatchesGolden(frame, named: "audience-poll-japanese-bar-1280x360.png")
        withExtendedLifetime(pool) {}
    }

    /// Right-to-left questions, options and names (Hebrew, Arabic): each reads right to left in
    /// its isolate, while the strip keeps its own order: the number before each option, the count
    /// and the time at the right end, the names of the queue in the order they were called.
    func testRightToLeftTextKeepsTheStripsOrder() throws {
        let poll = Poll(question: "איזו מפה הבאה?", options: [Poll.Option(text: "دوست ٢", votes: 12),
                                                               Poll.Option(text: "מירז׳", votes: 30)], secondsLeft: 42)
        let view = AudienceView(poll: poll, queue: AudienceView.QueueView(playing: ["سارة", "Alice"], next: ["דוד"], waiting: 3))
        let (_, frame, pool) = try render(view, json: "{}", width: 1280, height: 360)
        try assertMatchesGolden(frame, named: "audience-rtl-bar-1280x360.png")
        withExtendedLifetime(pool) {}
        let lines = AudienceStrip.lines(of: view)
        XCTAssertEqual(lines[1].left, "1. \u{2068}دوست ٢\u{2069}", "the option isolated after its number")
        XCTAssertEqual(lines[3].left, "▶ \u{2068}سارة\u{2069}, \u{2068}Alice\u{2069}")
    }

    /// Small bars: a low one (too low for a stacked line) shows one line as the ticker does; a
    /// narrow box keeps the question and the leading option with its count; a high, narrow ticker
    /// wraps its segments (the time whole, then the question) rather than cutting them short.
    func testSmallBarsKeepTheQuestionAndTheLeadingOption() throws {
        for (name, json, width, height) in [("bar", "{}", 320, 120), ("ticker", #"{"layout":"ticker"}"#, 320, 120),
                                            ("box", #"{"layout":"box"}"#, 320, 240)] {
            let (renderer, frame, pool) = try render(Self.openPoll, json: json, width: width, height: height)
            XCTAssertNotNil(renderer.drawnElements.first { $0.name == "audience strip" }, name)
            try assertMatchesGolden(frame, named: "audience-poll-open-\(name)-\(width)x\(height).png")
            withExtendedLifetime(pool) {}
        }
        let (renderer, frame, pool) = try render(Self.queue, json: #"{"layout":"ticker"}"#, width: 320, height: 120)
        let strip = try XCTUnwrap(renderer.drawnElements.first { $0.name == "audience strip" }?.rect)
        XCTAssertGreaterThan(strip.height, 60, "two lines or more in a 120 px high ticker")
        XCTAssertTrue(strip.y >= 0 && strip.y + strip.height <= 120 && strip.x + strip.width <= 320, "\(strip)")
        try assertMatchesGolden(frame, named: "audience-queue-ticker-320x120.png")
        withExtendedLifetime(pool) {}
    }

    /// The wrapped ticker strip keeps the whole time left on its first line.
    func testAHighNarrowTickerKeepsTheTimeWhole() throws {
        let style = TextStyle(settings: try lookSettings(#"{"layout":"ticker"}"#),
                              layout: BarLayout(settings: try lookSettings(#"{"layout":"ticker"}"#), width: 320, height: 120))
        let engine = TextEngine()
        let strip = AudienceStrip(shape: AudienceStrip.Shape(view: Self.openPoll, style: style, maxWidth: 120,
                                                             maxHeight: 120, inline: true), engine: engine)
        let oneLine = AudienceStrip(shape: AudienceStrip.Shape(view: Self.openPoll, style: style, maxWidth: 120,
                                                               maxHeight: 40, inline: true), engine: engine)
        XCTAssertGreaterThan(strip.height, oneLine.height * 3 / 2, "wrapped over more than one line")
        XCTAssertLessThanOrEqual(strip.height, 120)
        XCTAssertLessThanOrEqual(strip.width, 120)
    }

    /// The strip's lines, by rank when not all fit: the question, then the leading option; an
    /// option's count before its bar.
    func testWhatIsLeftOutWhenRoomIsShort() {
        let lines = AudienceStrip.lines(of: Self.openPoll)
        let question = "📊 " + AudienceStrip.isolated("Which map next?")
        XCTAssertEqual(AudienceStrip.kept(lines, count: 1).map(\.left), [question])
        XCTAssertEqual(AudienceStrip.kept(lines, count: 2).map(\.left),
                       [question, "2. " + AudienceStrip.isolated("Mirage")])
        XCTAssertEqual(AudienceStrip.kept(lines, count: 9).count, 4)
        XCTAssertEqual(AudienceStrip.clock(42), "0:42")
        XCTAssertEqual(AudienceStrip.clock(605), "10:05")
    }

    /// A full queue says so, in OBS's language, and keeps saying so where only two lines fit; an
    /// empty queue shows the streamer's own join word.
    func testAFullQueueSaysSoAndAnEmptyOneShowsItsJoinWord() throws {
        let full = AudienceView(queue: AudienceView.QueueView(playing: ["たろう"], next: ["bob", "はなこ"], waiting: 500,
                                                              full: true, joinWord: "!参加"))
        XCTAssertEqual(AudienceStrip.lines(of: full).last?.right, "500 waiting · full")
        XCTAssertEqual(AudienceStrip.lines(of: full, words: .japanese).last?.right, "待ち 500 人 · 満員")
        XCTAssertEqual(AudienceStrip.kept(AudienceStrip.lines(of: full), count: 1).map(\.right), ["500 waiting · full"],
                       "room for one line: the queue is full")
        var withWinner = full
        withWinner.winner = AudienceView.WinnerView(name: "Lucky", platform: "twitch")
        XCTAssertEqual(AudienceStrip.kept(AudienceStrip.lines(of: withWinner), count: 1).count, 1,
                       "a full queue and a winner share a rank: still one line where one fits")
        XCTAssertEqual(AudienceStrip.kept(AudienceStrip.lines(of: withWinner), count: 2).map(\.right),
                       ["500 waiting · full", "twitch"])
        let empty = AudienceView(queue: AudienceView.QueueView(playing: [], next: [], waiting: 0, joinWord: "!参加"))
        XCTAssertEqual(AudienceStrip.lines(of: empty).last?.left, AudienceStrip.isolated("!参加"))
        let (renderer, frame, pool) = try render(full, json: "{}", width: 320, height: 120)
        XCTAssertNotNil(renderer.drawnElements.first { $0.name == "audience strip" })
        try assertMatchesGolden(frame, named: "audience-queue-full-bar-320x120.png")
        withExtendedLifetime(pool) {}
    }

    /// The strip's own words follow OBS's language; the streamer's question and the names do not.
    func testTheStripsWordsFollowOBSLanguage() {
        XCTAssertEqual(AudienceWords.forLocale("ja-JP"), .japanese)
        XCTAssertEqual(AudienceWords.forLocale("en-US"), .english)
        XCTAssertEqual(AudienceWords.forLocale(nil), .english)
        let closed = AudienceStrip.lines(of: Self.closedPoll, words: .japanese)
        XCTAssertEqual(closed.first?.right, "締切 · 49")
        XCTAssertEqual(closed.first?.left, "📊 " + AudienceStrip.isolated("Which map next?"))
        XCTAssertEqual(AudienceStrip.lines(of: Self.closedPoll).first?.right, "closed · 49")
        let queue = AudienceStrip.lines(of: Self.queue, words: .japanese)
        XCTAssertEqual(queue.map(\.right), ["プレイ中", AudienceWords.japanese.waiting(Self.queue.queue?.waiting ?? -1)])
        XCTAssertTrue(queue[1].left.hasPrefix("次: "), queue[1].left)
    }

    /// The strip's text against its panel, 4.5:1 at least, on every built-in theme and the
    /// streamer's own extremes; and the panel in the frame is that very colour (opaque).
    func testEveryThemeKeepsFourAndAHalfToOne() throws {
        let themes = Theme.builtinNames.map { #"{"theme":"\#($0)"}"# }
            + [#"{"bg_color":4294967295,"text_color":4294967295}"#, #"{"bg_color":4286611584,"row_style":"bubble"}"#,
               #"{"bg_opacity":0,"text_color":4278190080}"#,
               #"{"text_outline":2,"outline_color":4294967295,"text_color":4294967295}"#]
        for theme in themes {
            let settings = try lookSettings(theme)
            let (renderer, frame, pool) = try render(Self.openPoll, json: theme, width: 1280, height: 360)
            let style = TextStyle(settings: settings, layout: BarLayout(settings: settings, width: 1280, height: 360))
            let strip = AudienceStrip(shape: AudienceStrip.Shape(view: Self.openPoll, style: style, maxWidth: 800,
                                                                 maxHeight: 200, inline: false),
                                      engine: TextEngine())
            XCTAssertGreaterThanOrEqual(Contrast.ratio(strip.text, strip.panel), 4.5, theme)
            let rect = try XCTUnwrap(renderer.drawnElements.first { $0.name == "audience strip" }?.rect, theme)
            let pixel = frame.pixels.load(fromByteOffset: (rect.y + rect.height / 2) * frame.stride + (rect.x + 1) * 4,
                                          as: UInt32.self)
            let seen = RGBColor(red: UInt8((pixel >> 16) & 0xFF), green: UInt8((pixel >> 8) & 0xFF),
                                blue: UInt8(pixel & 0xFF))
            XCTAssertEqual(pixel >> 24, 0xFF, "\(theme): the panel is opaque")
            XCTAssertLessThan(Contrast.ratio(seen, strip.panel), 1.05, "\(theme): the panel is drawn as measured")
            XCTAssertGreaterThanOrEqual(Contrast.ratio(strip.text, seen), 4.5, "\(theme): text on the drawn panel")
            withExtendedLifetime(pool) {}
        }
    }

    /// Laid out once while it shows the same; rows scrolling below it give the same pixels as a
    /// frame drawn from nothing; a changed count lays it out again.
    func testTheStripIsKeptWhileUnchangedAndRowsScrollBelowIt() throws {
        let settings = try lookSettings("{}", width: 900, height: 300)
        let renderer = BarRenderer(settings: settings, width: 900, height: 300)
        let pool = MemoryFramePool(width: 900, height: 300)
        var state = BarState()
        state.apply(.status(.live))
        state.audience = Self.openPoll
        XCTAssertTrue(renderer.render(state, now: 1000, into: pool))
        XCTAssertEqual(renderer.lastWork.audienceStripsLaidOut, 1)
        for index in 0..<8 {
            state.apply(.comment(row("c\(index)", "viewer\(index)", "comment number \(index)")))
            XCTAssertTrue(renderer.render(state, now: 1000, into: pool))
            XCTAssertEqual(renderer.lastWork.audienceStripsLaidOut, 0, "comment \(index) lays the strip out again")
            let frame = try XCTUnwrap(pool.newestFrame)
            XCTAssert(bytes(frame) == renderFromNothing(state, now: 1000, settings: settings, width: 900, height: 300),
                      "frame after comment \(index) differs from a full redraw")
        }
        XCTAssertFalse(renderer.render(state, now: 1000.5, into: pool), "nothing changed: no frame")
        state.audience.poll?.options[0].votes += 1
        XCTAssertTrue(renderer.render(state, now: 1001, into: pool))
        XCTAssertEqual(renderer.lastWork.audienceStripsLaidOut, 1)
        state.audience = AudienceView()
        XCTAssertTrue(renderer.render(state, now: 1001, into: pool))
        XCTAssertNil(renderer.drawnElements.first { $0.name == "audience strip" }, "gone when nothing is shown")
    }
}
