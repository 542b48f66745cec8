import CommentBarFeeds
import XCTest
@testable import CommentBarNetFeeds

final class ConfigTests: XCTestCase {
    func testUnknownServiceIsNotNetwork() throws {
        XCTAssertNil(try NetworkFeeds.make(service: "demo", streamID: "x", server: ""))
    }

    func testTwitchChannels() throws {
        XCTAssertEqual(try StreamID.twitchChannel("Some_Streamer42"), "#some_streamer42")
        XCTAssertEqual(try StreamID.twitchChannel("#chan"), "#chan")
        for bad in ["", "#", "##chan", "a b", "a,b", "a\r\nJOIN #x", "a\u{0}", "ａｂｃ", String(repeating: "a", count: 26)] {
            XCTAssertThrowsError(try StreamID.twitchChannel(bad), bad.debugDescription)
        }
        XCTAssertNoThrow(try StreamID.twitchChannel(String(repeating: "a", count: 25)))
    }

    func testIRCChannels() throws {
        XCTAssertEqual(try StreamID.ircChannel("linux"), "#linux")
        XCTAssertEqual(try StreamID.ircChannel("#linux"), "#linux")
        XCTAssertEqual(try StreamID.ircChannel("##linux"), "##linux")
        XCTAssertEqual(try StreamID.ircChannel("日本語"), "#日本語")
        for bad in ["", "#", "a b", "a,b", "a:b", "a\rb", "a\nb", "a\u{0}", "a\u{7}", String(repeating: "a", count: 51)] {
            XCTAssertThrowsError(try StreamID.ircChannel(bad), bad.debugDescription)
        }
    }

    func testErrorMessagesAreOneReadableLine() {
        do {
            _ = try NetworkFeeds.make(service: "twitch", streamID: "a\r\nJOIN #x", server: "")
            XCTFail("accepted")
        } catch {
            XCTAssertFalse(error.message.contains("\n"))
            XCTAssertTrue(error.message.contains("twitch channel"), error.message)
        }
    }

    func testEndpoints() throws {
        XCTAssertEqual(try FeedEndpoint.parse("ircs://irc.libera.chat", service: "irc", schemes: ["ircs", "irc"]),
                       FeedEndpoint(transport: .tcp, usesTLS: true, host: "irc.libera.chat", port: 6697))
        XCTAssertEqual(try FeedEndpoint.parse("irc://127.0.0.1:6668/", service: "irc", schemes: ["irc"]),
                       FeedEndpoint(transport: .tcp, usesTLS: false, host: "127.0.0.1", port: 6668))
        XCTAssertEqual(try FeedEndpoint.parse("wss://irc-ws.chat.twitch.tv:443", service: "twitch", schemes: ["wss"]),
                       FeedEndpoint(transport: .webSocket(path: "/"), usesTLS: true, host: "irc-ws.chat.twitch.tv", port: 443))
        XCTAssertEqual(try FeedEndpoint.parse("ws://[::1]:8080/a/b?c=d", service: "websocket", schemes: ["ws"]),
                       FeedEndpoint(transport: .webSocket(path: "/a/b?c=d"), usesTLS: false, host: "::1", port: 8080))
        for bad in ["", "nonsense", "http://x", "irc://", "irc://host:0", "irc://host:99999", "irc://host/chan",
                    "ws://user:pw@host", "ws://ho st", "ws://host/\r\nX: y", "ftp://x"] {
            XCTAssertThrowsError(try FeedEndpoint.parse(bad, service: "t", schemes: ["irc", "ws"]), bad.debugDescription)
        }
    }

    func testServiceServerRules() throws {
        XCTAssertNotNil(try NetworkFeeds.make(service: "twitch", streamID: "chan", server: ""))
        XCTAssertNotNil(try NetworkFeeds.make(service: "twitch", streamID: "chan", server: "irc://127.0.0.1:6667"))
        XCTAssertThrowsError(try NetworkFeeds.make(service: "irc", streamID: "chan", server: ""))
        XCTAssertThrowsError(try NetworkFeeds.make(service: "websocket", streamID: "x", server: "irc://h"))
        XCTAssertThrowsError(try NetworkFeeds.make(service: "websocket", streamID: "", server: "ws://h/{stream}"))
    }

    func testWebSocketStreamIsPercentEncoded() throws {
        let feed = try XCTUnwrap(try NetworkFeeds.make(service: "websocket", streamID: "a b/é?#",
                                                       server: "ws://127.0.0.1:9000/chat/{stream}?x=1") as? JSONWebSocketFeed)
        XCTAssertEqual(feed.endpoint.transport, .webSocket(path: "/chat/a%20b%2F%C3%A9%3F%23?x=1"))
    }

    func testBackoffGrowsWithJitterAndIsCapped() {
        var backoff = ReconnectBackoff()
        var generator = SystemRandomNumberGenerator()
        var delays: [Double] = []
        for _ in 0..<12 { delays.append(backoff.nextDelay(using: &generator)) }
        XCTAssertTrue(delays.allSatisfy { $0 >= 0.25 && $0 <= 30 }, "\(delays)")
        XCTAssertLessThanOrEqual(delays[0], 0.5)
        XCTAssertGreaterThanOrEqual(delays[11], 15)
        backoff.reset()
        XCTAssertLessThanOrEqual(backoff.nextDelay(using: &generator), 0.5)
    }

    func testExtraCAFileMustExist() {
        XCTAssertThrowsError(try TLSSettings.makeContext(environment: ["COMMENTBAR_CA_FILE": "/nonexistent/ca.pem"]))
        XCTAssertNoThrow(try TLSSettings.makeContext(environment: [:]))
        XCTAssertNil(TLSSettings.serverHostname(for: "127.0.0.1"))
        XCTAssertNil(TLSSettings.serverHostname(for: "::1"))
        XCTAssertEqual(TLSSettings.serverHostname(for: "localhost"), "localhost")
    }
}
