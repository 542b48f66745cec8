// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
@testable import CommentBarNet
import Foundation
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

    func testAPIBase() throws {
        XCTAssertEqual(try APIBase.parse("", default: "https://a.example", service: "x"), "https://a.example")
        XCTAssertEqual(try APIBase.parse("https://127.0.0.1:8443/", default: "https://a.example", service: "x"),
                       "https://127.0.0.1:8443")
        for bad in ["http://a.example", "file:///etc/passwd", "https://user:pw@a.example", "https://a.example/?q=1",
                    "wss://a.example", "a.example"] {
            XCTAssertThrowsError(try APIBase.parse(bad, default: "https://a.example", service: "x"), bad)
        }
    }
}
