// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import FoundationEssentials
import XCTest

final class BroadcastReadingTests: XCTestCase {
    private func obs(streaming: Double? = nil, recording: Double? = nil) -> OBSLiveState {
        var state = OBSLiveState()
        state.frontend = true
        state.streaming = streaming != nil
        state.streamingStart = streaming
        state.recording = recording != nil
        state.recordingStart = recording
        return state
    }

    func testAutoPrefersTheFeedThenStreamingThenRecording() {
        let both = obs(streaming: 2000, recording: 1000)
        XCTAssertEqual(BroadcastReading.resolve(.auto, feedStart: 500, feedStatus: .live, obs: both),
                       BroadcastReading(start: 500, onAir: .live, clockHidden: false))
        XCTAssertEqual(BroadcastReading.resolve(.auto, feedStart: nil, feedStatus: .live, obs: both).start, 2000)
        XCTAssertEqual(BroadcastReading.resolve(.auto, feedStart: nil, feedStatus: .live, obs: obs(recording: 1000)),
                       BroadcastReading(start: 1000, onAir: .recording, clockHidden: false))
        XCTAssertEqual(BroadcastReading.resolve(.auto, feedStart: nil, feedStatus: .live, obs: OBSLiveState()),
                       BroadcastReading(start: nil, onAir: .offAir, clockHidden: false))
    }

    func testLiveOnlyWhileOBSStreamsOrTheFollowedFeedIsLive() {
        // Recording only: REC, even with a live chat, when the clock follows OBS.
        XCTAssertEqual(BroadcastReading.resolve(.recording, feedStart: 500, feedStatus: .live, obs: obs(recording: 1000)).onAir,
                       .recording)
        // The feed's stream start, but the chat is reconnecting: not on air by the feed's word.
        XCTAssertEqual(BroadcastReading.resolve(.feed, feedStart: 500, feedStatus: .reconnecting(reason: ""),
                                                obs: OBSLiveState()),
                       BroadcastReading(start: 500, onAir: .offAir, clockHidden: false))
        XCTAssertEqual(BroadcastReading.resolve(.streaming, feedStart: 500, feedStatus: .live, obs: OBSLiveState()),
                       BroadcastReading(start: nil, onAir: .offAir, clockHidden: false))
    }

    func testStoppedAndEndedStreamsShowTheIdleClock() {
        XCTAssertNil(BroadcastReading.resolve(.feed, feedStart: 500, feedStatus: .ended(reason: ""), obs: OBSLiveState()).start)
        var stopped = obs(streaming: 2000)
        stopped.streaming = false
        XCTAssertNil(BroadcastReading.resolve(.streaming, feedStart: nil, feedStatus: .live, obs: stopped).start)
        XCTAssertTrue(BroadcastReading.resolve(.off, feedStart: 500, feedStatus: .live, obs: obs(streaming: 1)).clockHidden)
    }

    func testMicBadgeNeverClaimsOnWithoutWord() {
        XCTAssertEqual(MicState.resolve(obs: .unknown, feed: nil), .unknown)
        XCTAssertEqual(MicState.resolve(obs: .unknown, feed: true), .on)
        XCTAssertEqual(MicState.resolve(obs: .muted, feed: true), .muted, "a chosen OBS mic wins over the feed")
        XCTAssertEqual(MicState.resolve(obs: .none, feed: true), .none)
    }

    func testOBSStateFromTheShimIsChecked() throws {
        func decode(_ json: String) throws -> OBSLiveState {
            try JSONDecoder().decode(OBSLiveState.self, from: Data(json.utf8))
        }
        let good = try decode(#"{"frontend":true,"streaming":true,"streaming_start":1700000000.5,"mic":"muted","mic_level":4}"#)
        XCTAssertEqual(good.streamingStart, 1_700_000_000.5)
        XCTAssertEqual(good.mic, .muted)
        XCTAssertEqual(good.micLevel, 4)
        let bad = try decode(#"{"streaming":true,"streaming_start":1e300,"recording":"yes","mic":"loud","mic_level":99}"#)
        XCTAssertNil(bad.streamingStart, "an absurd start is no start")
        XCTAssertFalse(bad.recording)
        XCTAssertEqual(bad.mic, .unknown)
        XCTAssertEqual(bad.micLevel, OBSLiveState.MicLevel.steps)
        XCTAssertNil(try decode(#"{"recording":false,"recording_start":1700000000}"#).recordingStart,
                     "no start while not recording")
        XCTAssertNil(try decode(#"{"mic_level":-1}"#).micLevel)
    }
}
