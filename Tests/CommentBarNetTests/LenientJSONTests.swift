// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
@testable import CommentBarNet
import Foundation
import CommentBarFeeds
import CommentBarNetTesting
import XCTest

/// Numbers sent as numbers or strings, and the `server` setting as an API base.
final class LenientJSONTests: XCTestCase {
    private struct Sample: Decodable {
        var int: LenientInt?
        var text: LenientString?
    }

    private func decode(_ json: String) throws -> Sample {
        try JSONDecoder().decode(Sample.self, from: Data(json.utf8))
    }

    func testNumbersAndDigitStrings() throws {
        XCTAssertEqual(try decode(#"{"int":8,"text":12}"#).int?.value, 8)
        XCTAssertEqual(try decode(#"{"int":"1","text":12}"#).int?.value, 1)
        XCTAssertEqual(try decode(#"{"int":8,"text":12}"#).text?.value, "12")
        XCTAssertEqual(try decode(#"{"text":"ab"}"#).text?.value, "ab")
        for odd in [#"{"int":"x"}"#, #"{"int":1.5}"#, #"{"int":{}}"#, #"{"int":[1]}"#, #"{"int":"99999999999999999999999"}"#] {
            XCTAssertNil(try decode(odd).int?.value, odd)
        }
        XCTAssertNil(try decode(#"{"int":null}"#).int?.value)
        XCTAssertNil(try decode(#"{"text":{"a":1}}"#).text?.value)
    }

    func testAPIBaseAndTheStreamersServer() throws {
        let web = EmbeddedWeb()
        let own = try WebAPI.parse("", default: "https://a.example", service: "x", web: web)
        XCTAssertEqual(own.base, "https://a.example")
        XCTAssertNil(own.streamerServer, "the platform's own API is no exemption")
        let typed = try WebAPI.parse("https://127.0.0.1:8443/", default: "https://a.example", service: "x", web: web)
        XCTAssertEqual(typed.base, "https://127.0.0.1:8443")
        XCTAssertEqual(typed.streamerServer, StreamerServer(host: "127.0.0.1", port: 8443))
        XCTAssertEqual(try WebAPI.parse("https://Relay.Example", default: "https://a.example", service: "x",
                                        web: web).streamerServer, StreamerServer(host: "relay.example", port: 443))
        for bad in ["http://a.example", "file:///etc/passwd", "https://user:pw@a.example", "https://a.example/?q=1",
                    "wss://a.example", "a.example"] {
            XCTAssertThrowsError(try WebAPI.parse(bad, default: "https://a.example", service: "x", web: web), bad)
        }
    }
}
