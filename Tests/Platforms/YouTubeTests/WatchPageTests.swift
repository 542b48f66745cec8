// SPDX-License-Identifier: GPL-2.0-or-later
import XCTest
@testable import YouTubePlatform

final class WatchPageTests: XCTestCase {
    private func page(_ html: String) -> WatchPage { WatchPage(html: Array(html.utf8)) }

    private let config = #"ytcfg.set({"INNERTUBE_API_KEY":"KEY_1","INNERTUBE_CONTEXT":{"client":{"clientName":"WEB","clientVersion":"2.2024","hl":"ja","visitorData":"V%3D"},"user":{}}});"#
    private let liveData = #"var ytInitialData = {"contents":{"twoColumnWatchNextResults":{"conversationBar":{"liveChatRenderer":{"continuations":[{"reloadContinuationData":{"continuation":"OWN"}}],"header":{"liveChatHeaderRenderer":{"viewSelector":{"sortFilterSubMenuRenderer":{"subMenuItems":[{"title":"Top chat","continuation":{"reloadContinuationData":{"continuation":"TOP"}}},{"title":"Live chat","continuation":{"reloadContinuationData":{"continuation":"ALL"}}}]}}}}}}}}};"#
    private func player(_ details: String, status: String = #"{"status":"OK"}"#, broadcast: String = #"{"isLiveNow":true,"startTimestamp":"2024-05-01T10:00:00+00:00"}"#) -> String {
        #"var ytInitialPlayerResponse = {"playabilityStatus":"# + status + #","videoDetails":"# + details
            + #","microformat":{"playerMicroformatRenderer":{"liveBroadcastDetails":"# + broadcast + "}}};"
    }

    func testLivePage() {
        let html = "<script>var x = \"ytInitialData = {\\\"a\\\":\\\"}\\\"}\";</script><script>ytcfg.set({\"EXPERIMENT_FLAGS\":{}});"
            + config + "</script><script>" + player(#"{"videoId":"abcdefghijk","isLive":true}"#) + "</script><script>" + liveData + "</script>{"
        let parsed = page(html)
        XCTAssertEqual(parsed.apiKey, "KEY_1")
        XCTAssertEqual(parsed.context?.client?.hl, "ja")
        guard case .live(let start) = parsed.availability(isChannelPage: false, name: "abcdefghijk") else {
            return XCTFail("\(parsed.availability(isChannelPage: false, name: "x"))")
        }
        XCTAssertEqual(start.continuation, "ALL", "the Live chat view (every message), not Top chat")
        XCTAssertEqual(start.videoID, "abcdefghijk")
        XCTAssertEqual(start.startTime, 1_714_557_600)
        XCTAssertEqual(start.context.client?.visitorData, "V%3D")
    }

    /// Every stream of a channel is one channel to the viewer memory: the page's
    /// `videoDetails.channelId`, when it is a channel id.
    func testTheChannelOfTheVideo() {
        func channel(_ details: String) -> String? {
            let parsed = page(config + player(details) + liveData)
            guard case .live(let start) = parsed.availability(isChannelPage: false, name: "v") else { return "not live" }
            return start.channelID
        }
        XCTAssertEqual(channel(#"{"videoId":"abcdefghijk","channelId":"UCabcdefghijklmnopqrstuv","isLive":true}"#),
                       "UCabcdefghijklmnopqrstuv")
        XCTAssertNil(channel(#"{"videoId":"abcdefghijk","isLive":true}"#))
        XCTAssertNil(channel(#"{"videoId":"abcdefghijk","channelId":"../../channel","isLive":true}"#))
        XCTAssertNil(channel(#"{"videoId":"abcdefghijk","channelId":"UCshort","isLive":true}"#))
    }

    func testStates() {
        let upcoming = page(config + player(#"{"videoId":"abcdefghijk","isUpcoming":true}"#, status: #"{"status":"LIVE_STREAM_OFFLINE"}"#) + liveData)
        XCTAssertEqual(upcoming.availability(isChannelPage: false, name: "v"), .waiting("the stream has not started"))
        let over = page(config + player(#"{"videoId":"abcdefghijk","isLiveContent":true}"#, broadcast: #"{"isLiveNow":false,"endTimestamp":"2024-05-01T12:00:00+00:00"}"#) + liveData)
        XCTAssertEqual(over.availability(isChannelPage: false, name: "v"), .ended("the stream is over"))
        XCTAssertEqual(over.availability(isChannelPage: true, name: "@c"), .waiting("@c is not live"))
        let privateVideo = page(config + player(#"{"videoId":"abcdefghijk"}"#, status: #"{"status":"LOGIN_REQUIRED","reason":"This video is private"}"#))
        XCTAssertEqual(privateVideo.availability(isChannelPage: false, name: "v"), .unavailable("the video is private or needs a login: This video is private"))
        let missing = page(config + #"var ytInitialPlayerResponse = {"playabilityStatus":{"status":"ERROR","reason":"Video unavailable"}};"# + liveData)
        XCTAssertEqual(missing.availability(isChannelPage: false, name: "v"), .unavailable("the video is unavailable: Video unavailable"))
        let chatOff = page(config + player(#"{"videoId":"abcdefghijk","isLive":true}"#)
                           + #"var ytInitialData = {"contents":{"twoColumnWatchNextResults":{"conversationBar":{"conversationBarRenderer":{"availabilityMessage":{"messageRenderer":{"text":{"runs":[{"text":"Chat is disabled for this live stream."}]}}}}}}}};"#)
        XCTAssertEqual(chatOff.availability(isChannelPage: false, name: "v"), .unavailable("Chat is disabled for this live stream."))
        let channelHome = page(config + #"var ytInitialData = {"contents":{"twoColumnBrowseResultsRenderer":{"tabs":[]}}};"#)
        XCTAssertEqual(channelHome.availability(isChannelPage: true, name: "@c"), .waiting("@c is not live"))
        let consent = page("<html><form action=\"https://consent.youtube.com/save\"></form></html>")
        guard case .notAPage = consent.availability(isChannelPage: false, name: "v") else { return XCTFail("consent page") }
    }

    func testChatPageContinuationAndLiveWithoutOne() {
        let chatPage = page(#"<script>window["ytInitialData"] = {"continuationContents":{"liveChatContinuation":{"continuations":[{"invalidationContinuationData":{"continuation":"FROM_CHAT_PAGE","timeoutMs":1000}}],"actions":[]}}};</script>"#)
        XCTAssertEqual(chatPage.initialData?.chatPageContinuation, "FROM_CHAT_PAGE")
        let noBar = page(config + player(#"{"videoId":"abcdefghijk","isLive":true}"#)
                         + #"var ytInitialData = {"contents":{"twoColumnWatchNextResults":{"conversationBar":{}}}};"#)
        guard case .liveWithoutContinuation(let start) = noBar.availability(isChannelPage: false, name: "v") else {
            return XCTFail("live without a continuation")
        }
        XCTAssertEqual(start.videoID, "abcdefghijk")
        let badID = page(config + player(#"{"videoId":"../../x?y=1","isLive":true}"#) + liveData)
        XCTAssertEqual(badID.availability(isChannelPage: false, name: "v"), .unavailable("no such video: v"))
    }

    func testUnclosedAndHugeObjectsAreBounded() {
        let unclosed = Array(("var ytInitialData = {\"a\":" + String(repeating: "[", count: 200_000)).utf8)
        XCTAssertNil(EmbeddedJSON.object(after: "ytInitialData", in: unclosed))
        let big = Array(("ytcfg.set({\"a\":\"" + String(repeating: "x", count: 1 << 20) + "\"})").utf8)
        XCTAssertNil(EmbeddedJSON.object(after: "ytcfg.set", in: big, maxBytes: 1 << 16))
        XCTAssertNotNil(EmbeddedJSON.object(after: "ytcfg.set", in: big))
        XCTAssertEqual(EmbeddedJSON.objects(after: "x", in: Array(String(repeating: "x={}", count: 100).utf8)).count, 16)
    }

    /// Issue 19: markers whose objects never close cost at most two passes over the page in
    /// all, not one each (8 MiB rescanned per failing marker before).
    func testManyUnclosedMarkersAreScannedOnce() {
        let page = Array((String(repeating: "ytInitialData = {\"a\":[", count: 20_000)).utf8)
        var scanned = 0
        XCTAssertNil(EmbeddedJSON.object(after: "ytInitialData", in: page, from: 0, maxBytes: 8 << 20, scanned: &scanned))
        XCTAssertLessThanOrEqual(scanned, 2 * page.count)
        let mismatched = Array((String(repeating: "ytInitialData = {\"a\":1]", count: 20_000) + "ytInitialData = {}").utf8)
        scanned = 0
        XCTAssertNotNil(EmbeddedJSON.object(after: "ytInitialData", in: mismatched, from: 0, maxBytes: 8 << 20,
                                            scanned: &scanned))
        XCTAssertLessThanOrEqual(scanned, 2 * mismatched.count)
    }
}
