// SPDX-License-Identifier: GPL-2.0-or-later
import XCTest
@testable import NiconicoPlatform

final class SeatMessagesTests: XCTestCase {
    private func handle(_ text: String) -> SeatMessages.Action { SeatMessages.handle(Array(text.utf8)) }

    func testHandshake() {
        XCTAssertEqual(handle(#"{"type":"ping"}"#), .send(#"{"type":"pong"}"#))
        XCTAssertEqual(handle(#"{"type":"seat","data":{"keepIntervalSec":30}}"#), .keepSeat(every: 30))
        XCTAssertEqual(handle(#"{"type":"seat","data":{"keepIntervalSec":0}}"#), .keepSeat(every: 1))
        XCTAssertEqual(handle(#"{"type":"seat","data":{"keepIntervalSec":1e300}}"#), .keepSeat(every: 600))
        XCTAssertEqual(handle(#"{"type":"messageServer","data":{"viewUri":"https://mpn.live.nicovideo.jp/api/view/v4/X","vposBaseTime":"2024-08-05T15:00:00+09:00"}}"#),
                       .messageServer(viewURI: "https://mpn.live.nicovideo.jp/api/view/v4/X"))
        XCTAssertEqual(handle(#"{"type":"statistics","data":{"viewers":120,"comments":3}}"#), .viewers(120))
        XCTAssertEqual(handle(#"{"type":"disconnect","data":{"reason":"END_PROGRAM"}}"#), .programmeEnded)
        XCTAssertEqual(handle(#"{"type":"disconnect","data":{"reason":"TAKEOVER"}}"#), .reconnect("the server closed the seat (TAKEOVER)"))
        XCTAssertEqual(handle(#"{"type":"error","data":{"code":"NO_PERMISSION"}}"#), .refused("NO_PERMISSION"))
        XCTAssertEqual(handle(#"{"type":"serverTime","data":{"iso8601":"x"}}"#), .ignore)
        XCTAssertEqual(SeatMessages.startWatching, #"{"type":"startWatching","data":{"reconnect":false}}"#)
    }

    func testBadMessagesAreSkipped() {
        for text in ["", "not json", "[]", #"{"data":{}}"#, #"{"type":"brandNew"}"#, #"{"type":"seat","data":{}}"#,
                     #"{"type":"messageServer","data":{"viewUri":"file:///etc/passwd"}}"#,
                     #"{"type":"messageServer","data":{"viewUri":"http://mpn.live.nicovideo.jp/x"}}"#] {
            guard case .unknown = handle(text) else { return XCTFail("\(text) was not skipped") }
        }
        XCTAssertEqual(handle(#"{"type":"statistics","data":{"viewers":-5}}"#), .ignore)
        XCTAssertEqual(SeatMessages.shown("A_B\u{1b}[31m<x>"), "A_B31mx")
    }
}
