// SPDX-License-Identifier: GPL-2.0-or-later
import XCTest
@testable import NiconicoPlatform

final class WatchPageTests: XCTestCase {
    /// The shape of a real watch page's script (NDGRClient reads the same paths), escaped as pages are.
    static let userSupplier = #"{"name":"配信者","pageUrl":"https://www.nicovideo.jp/user/12345","programProviderId":"12345","supplierType":"user"}"#

    static func page(status: String = "ON_AIR", webSocketURL: String = "wss://a.live2.nicovideo.jp/unama/wsapi/v2/watch/lv1?audience_token=t",
                     attributesFirst: Bool = false, supplier: String = userSupplier, socialGroup: String = "null") -> [UInt8] {
        let json = #"{"program":{"nicoliveProgramId":"lv1","title":"テスト <&> 'x'","status":"\#(status)","openTime":1699999000,"beginTime":1700000000,"endTime":1700003600,"statistics":{"watchCount":99},"supplier":\#(supplier)},"socialGroup":\#(socialGroup),"site":{"relive":{"webSocketUrl":"\#(webSocketURL)"}}}"#
        let escaped = json.replacing("&", with: "&amp;").replacing("\"", with: "&quot;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("'", with: "&#39;")
        let tag = attributesFirst
            ? "<script data-props=\"\(escaped)\" type=\"application/json\" id=\"embedded-data\"></script>"
            : "<script id=\"embedded-data\" data-props=\"\(escaped)\"></script>"
        return Array("<html><head><script id=\"other\" data-props=\"{}\"></script></head><body>\(tag)</body></html>".utf8)
    }

    func testEmbeddedData() throws {
        for attributesFirst in [false, true] {
            let page = try WatchPage.parse(html: Self.page(attributesFirst: attributesFirst))
            XCTAssertEqual(page, WatchPage(programmeID: "lv1", state: .onAir, beginTime: 1700000000,
                                           webSocketURL: "wss://a.live2.nicovideo.jp/unama/wsapi/v2/watch/lv1?audience_token=t",
                                           broadcaster: "user/12345"))
        }
    }

    /// Every programme of one broadcaster is one channel to the viewer memory: a channel's
    /// programme is the channel's, a user's the user's; a community only when nothing else is named.
    func testTheBroadcaster() throws {
        func broadcaster(supplier: String = "null", socialGroup: String = "null") throws -> String? {
            try WatchPage.parse(html: Self.page(supplier: supplier, socialGroup: socialGroup)).broadcaster
        }
        XCTAssertEqual(try broadcaster(supplier: Self.userSupplier,
                                       socialGroup: #"{"type":"community","id":"co1234567","name":"コミュ"}"#), "user/12345")
        XCTAssertEqual(try broadcaster(supplier: #"{"name":"公式","supplierType":"channel","programProviderId":"2646436"}"#,
                                       socialGroup: #"{"type":"channel","id":"ch2646436","name":"チャンネル"}"#), "ch2646436")
        XCTAssertEqual(try broadcaster(supplier: #"{"programProviderId":98765}"#), "user/98765", "a number is an id too")
        XCTAssertEqual(try broadcaster(socialGroup: #"{"type":"community","id":"co1"}"#), "co1")
        XCTAssertNil(try broadcaster())
        XCTAssertNil(try broadcaster(supplier: #"{"supplierType":"user","programProviderId":"../1"}"#,
                                     socialGroup: #"{"type":"channel","id":"ch../x"}"#))
    }

    func testStatuses() throws {
        XCTAssertEqual(try WatchPage.parse(html: Self.page(status: "BEFORE_RELEASE")).state, .notStarted)
        XCTAssertEqual(try WatchPage.parse(html: Self.page(status: "RELEASED")).state, .notStarted)
        XCTAssertEqual(try WatchPage.parse(html: Self.page(status: "ENDED")).state, .ended)
        XCTAssertEqual(try WatchPage.parse(html: Self.page(status: "ODD")).state, .other("ODD"))
        XCTAssertEqual(try WatchPage.parse(html: Self.page(webSocketURL: "")).webSocketURL, "")
    }

    func testPagesWithoutUsableDataAreRefused() {
        for html in ["", "<html></html>", "<script id=\"embedded-data\"></script>",
                     "<script id=\"embedded-data\" data-props=\"{&quot;program&quot;:", "<script id=\"embedded-data\" data-props=\"[1,2]\">",
                     "<script id=\"embedded-data\" data-props=\"{&quot;program&quot;:{}}\">"] {
            XCTAssertThrowsError(try WatchPage.parse(html: Array(html.utf8)), html)
        }
    }

    func testEntities() {
        XCTAssertEqual(HTMLEntities.unescape("&quot;&amp;&lt;&gt;&#39;&#x27;&#12354;&apos;"), "\"&<>''あ'")
        XCTAssertEqual(HTMLEntities.unescape("a &unknown; &amp &#0; &#x110000; &#xZZ; & b"), "a &unknown; &amp &#0; &#x110000; &#xZZ; & b")
        XCTAssertEqual(HTMLEntities.unescape("&amp;quot;"), "&quot;")
        XCTAssertEqual(HTMLEntities.unescape("no entities"), "no entities")
    }
}
