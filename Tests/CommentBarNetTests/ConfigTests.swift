// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import XCTest
@testable import CommentBarNet

final class ConfigTests: XCTestCase {
    func testEndpoints() throws {
        XCTAssertEqual(try FeedEndpoint.parse("ircs://irc.libera.chat", service: "irc", schemes: ["ircs", "irc"], namedBy: .streamer),
                       FeedEndpoint(transport: .tcp, usesTLS: true, host: "irc.libera.chat", port: 6697,
                                    namedBy: .streamer))
        XCTAssertEqual(try FeedEndpoint.parse("irc://127.0.0.1:6668/", service: "irc", schemes: ["irc"], namedBy: .streamer),
                       FeedEndpoint(transport: .tcp, usesTLS: false, host: "127.0.0.1", port: 6668, namedBy: .streamer))
        XCTAssertEqual(try FeedEndpoint.parse("wss://irc-ws.chat.twitch.tv:443", service: "twitch", schemes: ["wss"], namedBy: .feed),
                       FeedEndpoint(transport: .webSocket(path: "/"), usesTLS: true, host: "irc-ws.chat.twitch.tv", port: 443,
                                    namedBy: .feed))
        XCTAssertEqual(try FeedEndpoint.parse("ws://[::1]:8080/a/b?c=d", service: "websocket", schemes: ["ws"], namedBy: .streamer),
                       FeedEndpoint(transport: .webSocket(path: "/a/b?c=d"), usesTLS: false, host: "::1", port: 8080,
                                    namedBy: .streamer))
        for bad in ["", "nonsense", "http://x", "irc://", "irc://host:0", "irc://host:99999", "irc://host/chan",
                    "ws://user:pw@host", "ws://ho st", "ws://host/\r\nX: y", "ftp://x"] {
            XCTAssertThrowsError(try FeedEndpoint.parse(bad, service: "t", schemes: ["irc", "ws"], namedBy: .streamer),
                                 bad.debugDescription)
        }
    }

    func testExtraCAFileMustExist() {
        XCTAssertThrowsError(try TLSSettings.makeContext(environment: ["COMMENTBAR_CA_FILE": "/nonexistent/ca.pem"]))
        XCTAssertNoThrow(try TLSSettings.makeContext(environment: [:]))
        XCTAssertNil(TLSSettings.serverHostname(for: "127.0.0.1"))
        XCTAssertNil(TLSSettings.serverHostname(for: "::1"))
        XCTAssertEqual(TLSSettings.serverHostname(for: "localhost"), "localhost")
    }

    func testConnectToFollowsCurlSyntax() throws {
        let rules = try ConnectTo.parse("www.youtube.com:443:127.0.0.1:8443,:80::8080,live.example:443:[::1]:")
        XCTAssertEqual(rules.target(host: "www.youtube.com", port: 443).host, "127.0.0.1")
        XCTAssertEqual(rules.target(host: "WWW.YouTube.com", port: 443).port, 8443)
        XCTAssertEqual(rules.target(host: "www.youtube.com", port: 444).port, 444)  // another port: untouched
        XCTAssertEqual(rules.target(host: "any.host", port: 80).host, "any.host")   // empty ADDR keeps the host
        XCTAssertEqual(rules.target(host: "any.host", port: 80).port, 8080)
        XCTAssertEqual(rules.target(host: "live.example", port: 443).host, "::1")
        XCTAssertEqual(rules.target(host: "live.example", port: 443).port, 443)
        XCTAssertEqual(try ConnectTo.fromEnvironment([:]), ConnectTo())
        for bad in ["a:1:b", "a:99999:b:1", "a:1:b:x", "a:1:b:2:3"] {
            XCTAssertThrowsError(try ConnectTo.parse(bad), bad) { error in
                XCTAssertTrue("\(error)".contains("COMMENTBAR_CONNECT_TO"), "\(error)")
            }
        }
    }
}
