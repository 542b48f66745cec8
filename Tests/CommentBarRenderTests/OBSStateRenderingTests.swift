// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import XCTest

/// OBS's own state on the bar: the on-air badge, the clock it follows, the mic badge and meter.
final class OBSStateRenderingTests: XCTestCase {
    private func recording(since start: Double, mic: MicState = .on, level: Int? = nil) -> OBSLiveState {
        var obs = OBSLiveState()
        obs.frontend = true
        obs.recording = true
        obs.recordingStart = start
        obs.mic = mic
        obs.micLevel = level
        return obs
    }

    func testMuteFlipsTheBadgeAndOnlyTheStableLayer() {
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        XCTAssertTrue(renderer.render(state, obs: recording(since: now - 10), now: now, into: pool))
        let on = bytes(pool.newestFrame!)
        XCTAssertTrue(renderer.render(state, obs: recording(since: now - 10, mic: .muted), now: now, into: pool))
        XCTAssertTrue(renderer.lastWork.stableRedrawn)
        XCTAssertEqual(renderer.lastWork.linesLaidOut, 0, "muting lays out no comment")
        let muted = bytes(pool.newestFrame!)
        XCTAssertNotEqual(on, muted)
        XCTAssert(muted == renderFromNothing(state, obs: recording(since: now - 10, mic: .muted), now: now))
        XCTAssertFalse(renderer.render(state, obs: recording(since: now - 10, mic: .muted), now: now, into: pool),
                       "the same mic state makes no frame")
    }

    func testMeterRedrawsOnlyItsRectangleAndASilentMicMakesNoFrames() {
        var settings = BarSettings()
        settings.micMeter = true
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, obs: recording(since: now - 10, level: 0), now: now, into: pool)
        renderer.render(state, obs: recording(since: now - 10, level: 0), now: now, into: pool)
        XCTAssertFalse(renderer.render(state, obs: recording(since: now - 10, level: 0), now: now + 0.2, into: pool),
                       "a silent mic makes no frames")
        // Every slot of the pool gets a frame first, so the last one catches up only what changed.
        for level in 1...4 {
            XCTAssertTrue(renderer.render(state, obs: recording(since: now - 10, level: level), now: now + 0.2, into: pool))
        }
        XCTAssertTrue(renderer.render(state, obs: recording(since: now - 10, level: 7), now: now + 0.2, into: pool))
        XCTAssertEqual(renderer.lastWork.kind, .copied)
        XCTAssertFalse(renderer.lastWork.stableRedrawn, "a level change is not a stable redraw")
        XCTAssertLessThan(renderer.lastWork.bytesCaughtUp, 1280 * 360 * 4 / 20)
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, obs: recording(since: now - 10, level: 7),
                                                                  now: now + 0.2, settings: settings))
    }

    func testClockFollowsTheChosenSourceAndIdlesWhenItStops() {
        var settings = BarSettings()
        settings.clockSource = .recording
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, obs: recording(since: now - 3725), now: now, into: pool)
        let running = bytes(pool.newestFrame!)
        var stopped = recording(since: now - 3725)
        stopped.recording = false
        stopped.recordingStart = nil
        XCTAssertTrue(renderer.render(state, obs: stopped, now: now, into: pool), "stopping changes the bar")
        XCTAssertNotEqual(running, bytes(pool.newestFrame!))
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, obs: stopped, now: now, settings: settings))
        XCTAssertFalse(renderer.render(state, obs: stopped, now: now + 5, into: pool), "the idle clock does not tick")
    }

    func testAHundredHourStreamWidensTheClock() {
        var settings = BarSettings()
        settings.clockSource = .recording
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, obs: recording(since: now - 359_999), now: now, into: pool)
        XCTAssertTrue(renderer.render(state, obs: recording(since: now - 359_999), now: now + 1, into: pool))
        XCTAssertTrue(renderer.lastWork.stableRedrawn, "the third hour digit makes room for itself")
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, obs: recording(since: now - 359_999),
                                                                  now: now + 1, settings: settings))
    }

    func testBadgeStatesGolden() throws {
        var settings = BarSettings()
        settings.micMeter = true
        settings.clockSource = .recording
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        BarRenderer(settings: settings, width: 1280, height: 360)
            .render(state, obs: recording(since: now - 4_000, mic: .muted, level: 6), now: now, into: pool)
        try assertMatchesGolden(pool.newestFrame!, named: "obs-recording-muted-meter-1280x360.png")
    }
}
