// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import XCTest
@testable import CommentBarServe

/// When the frame loop is woken with no event (issue 31: never for nothing).
final class NextRedrawTests: XCTestCase {
    private func due(now: Double, clock: Bool, start: Double? = nil, pinUntil: Double? = nil,
                     rendererDue: Double? = nil) -> Double? {
        var settings = BarSettings()
        settings.showClock = clock
        var state = BarState()
        state.streamStart = start
        if let pinUntil { state.pin(ChatLine(id: "p", user: "u", text: "pinned"), until: pinUntil) }
        return NextRedraw.after(now, state: state, obs: OBSLiveState(), settings: settings, rendererDue: rendererDue)
    }

    func testTheClockIsDueAtItsNextWholeSecondWithinTheSlack() throws {
        let next = try XCTUnwrap(due(now: 1010.3, clock: true, start: 1000))
        XCTAssertEqual(next, 1011 + NextRedraw.clockSlack, accuracy: 1e-9)
        // Before its start the clock shows 00:00:00 until a second after it.
        XCTAssertEqual(try XCTUnwrap(due(now: 990, clock: true, start: 1000)), 1001 + NextRedraw.clockSlack, accuracy: 1e-9)
    }

    func testNothingIsDueWithoutAClockAPinOrAnAnimation() {
        XCTAssertNil(due(now: 1010.3, clock: false, start: 1000))
        XCTAssertNil(due(now: 1010.3, clock: true, start: nil), "the idle clock (--:--:--) never changes")
    }

    func testAPinsEndAndTheRenderersStep() throws {
        XCTAssertEqual(try XCTUnwrap(due(now: 1010.3, clock: false, pinUntil: 1012.5)), 1012.5 + NextRedraw.margin,
                       accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(due(now: 1010.3, clock: true, start: 1000, rendererDue: 1010.4)), 1010.4,
                       accuracy: 1e-9, "an animated emote's step, as the renderer says, before the clock's second")
    }

    /// The renderer's own motion (issue 38): its next change, whatever the settings; nothing when
    /// it is at rest.
    func testTheRenderersMotion() throws {
        var settings = BarSettings()
        settings.showClock = false
        XCTAssertEqual(try XCTUnwrap(NextRedraw.after(1000, state: BarState(), obs: OBSLiveState(), settings: settings,
                                                      rendererDue: 1012.5)), 1012.5, "a row's fade to come")
        XCTAssertEqual(try XCTUnwrap(NextRedraw.after(1000, state: BarState(), obs: OBSLiveState(), settings: settings,
                                                      rendererDue: 999)), 1000, "a time already past is now")
        settings.layout = .ticker
        XCTAssertNil(NextRedraw.after(1000, state: BarState(), obs: OBSLiveState(), settings: settings),
                     "a ticker at rest wakes nothing")
    }
}
