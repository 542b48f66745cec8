// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
@testable import CommentBarRender
import XCTest

/// No element is drawn over another (issue 38), at any size from 320x120 to 3840x2160, in every
/// layout: the header's badge, clock, chat chip, counters, mic, meter and a problem's text, the
/// avatar, the pinned strip, the audience's strip (issue 48: a poll, the queue, a winner), the rows
/// and the ticker's comments. What does not fit is left out.
final class NoOverlapTests: XCTestCase {
    private let sizes = [(320, 120), (400, 64), (480, 900), (640, 200), (1280, 72), (1280, 360), (1920, 1080),
                         (3840, 2160), (320, 2160), (3840, 120)]

    /// Everything at once: large counts, the chat reconnecting with a long reason, a pin, OBS
    /// streaming with the mic's meter on, long and wrapping comments.
    private func busyState() -> BarState {
        var state = BarState()
        state.apply(.start(time: 1_700_000_000 - 360_000))
        state.viewers = 1_234_567
        state.giftsTotal = 98_765
        for index in 0..<12 {
            state.apply(.comment(row("r\(index)", "視聴者_number_\(index)",
                                     String(repeating: "とても長いコメントが続きます long words ", count: index % 4 + 1))))
        }
        state.apply(.gift(ChatLine(id: "g", user: "Big Giver", text: "", kind: .gift(name: "🌟 Star", count: 10))))
        state.pin(row("p", "Pinned", "pinned for everyone to read"), until: nil)
        state.apply(.status(.reconnecting(reason: "the chat server closed the connection; trying again in 30 seconds")))
        state.audience = AudienceView(
            poll: AudienceView.PollView(question: "とても長い質問です: which of these nine options do you like best?",
                                        options: (1...9).map { .init(text: "選択肢 option \($0)", votes: $0 * 1234) },
                                        secondsLeft: 3599),
            queue: AudienceView.QueueView(playing: ["たろう", "Alice"], next: ["a", "b", "c", "d", "e"], waiting: 48, full: true),
            winner: AudienceView.WinnerView(name: "当選した視聴者 Lucky Viewer", platform: "youtube"))
        return state
    }

    private var obs: OBSLiveState {
        var obs = OBSLiveState()
        obs.frontend = true
        obs.streaming = true
        obs.streamingStart = 1_700_000_000 - 4000
        obs.mic = .on
        obs.micLevel = 6
        return obs
    }

    func testNoElementIsDrawnOverAnotherAtAnySizeInAnyLayout() throws {
        let looks = [#"{"mic_meter":true}"#, #"{"mic_meter":true,"show_avatar":false}"#,
                     #"{"layout":"box","mic_meter":true}"#, #"{"layout":"box","newest":"top","show_avatar":false}"#,
                     #"{"theme":"box-outline"}"#, #"{"layout":"ticker","mic_meter":true}"#, #"{"theme":"ticker"}"#,
                     #"{"layout":"box","font":{"size":60},"row_style":"bubble"}"#]
        let state = busyState()
        for json in looks {
            for (width, height) in sizes {
                let settings = try lookSettings(json, width: width, height: height)
                let renderer = BarRenderer(settings: settings, width: width, height: height)
                let pool = MemoryFramePool(width: width, height: height)
                renderer.render(state, obs: obs, now: 1_700_000_000, into: pool)
                let elements = renderer.drawnElements
                let context = "\(json) at \(width)x\(height)"
                XCTAssertFalse(elements.isEmpty, context)
                // Where there is room the strip is there: the test cannot pass by leaving it out.
                if width >= 1280 && (height >= 360 || json.contains("ticker")) {
                    XCTAssertNotNil(elements.first { $0.name == "audience strip" }, "\(context): the audience's strip shows")
                }
                let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
                for element in elements {
                    XCTAssertEqual(element.rect.intersection(bounds), element.rect, "\(context): \(element.name) inside the bar")
                }
                for (index, a) in elements.enumerated() {
                    for b in elements[(index + 1)...] where !a.rect.intersection(b.rect).isEmpty {
                        XCTFail("\(context): \(a.name) \(a.rect) and \(b.name) \(b.rect) overlap")
                    }
                }
            }
        }
    }

    /// The case the issue names: at 480x900 the chat chip was drawn over the viewer count.
    func testTheChatChipIsNeverOverTheViewerCount() throws {
        var state = BarState()
        state.viewers = 128
        state.apply(.status(.live))
        let renderer = BarRenderer(settings: try lookSettings("{}", width: 480, height: 900), width: 480, height: 900)
        renderer.render(state, now: 1_700_000_000, into: MemoryFramePool(width: 480, height: 900))
        let elements = Dictionary(renderer.drawnElements.map { ($0.name, $0.rect) }, uniquingKeysWith: { a, _ in a })
        let viewers = try XCTUnwrap(elements["viewers(0)"], "the viewer count is kept: \(elements.keys)")
        if let chip = elements["chat chip"] { XCTAssertTrue(chip.intersection(viewers).isEmpty) }
        XCTAssertNotNil(elements["on-air badge"])
    }
}
