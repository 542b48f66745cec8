// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarOneComme
import Foundation
import XCTest

/// Our rows as OneComme's comment objects: escaped HTML, emotes as pictures (never from this
/// machine's network), the memory's first-time badge, nickname and count, paid messages' colours.
final class OneCommeCommentTests: XCTestCase {
    let stream = OneCommeStream(platform: "youtube", channel: "UCabc", name: "YouTube",
                                colour: RGBColor(red: 255, green: 0, blue: 0))

    func json(_ comment: OneCommeComment) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(OneCommeMessage.encode(comment))) as? [String: Any])
    }

    func testTextIsEscapedAndEmotesArePictures() throws {
        var line = ChatLine(id: "m1", user: "Eve", login: "eve", text: "<script>alert(1)</script> Kappa & \"x\"")
        line.emotes = [Emote(range: 26..<31, name: "Kappa", url: "https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/1.0")]
        let html = OneCommeHTML.comment(line)
        XCTAssertFalse(html.contains("<script>"), html)
        XCTAssertTrue(html.hasPrefix("&lt;script&gt;alert(1)&lt;/script&gt; "), html)
        XCTAssertTrue(html.contains("<img src=\"https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/1.0\" alt=\"Kappa\""), html)
        XCTAssertTrue(html.hasSuffix(" &amp; &quot;x&quot;"), html)
    }

    func testPicturesOnThisMachineOrNetworkStayText() {
        for url in ["https://127.0.0.1/a.png", "https://192.168.1.1/a.png", "https://[::1]/a.png", "https://localhost/a.png",
                    "https://router.local/a.png", "http://example.com/a.png", "https://user@example.com/a.png"] {
            var line = ChatLine(id: "m", user: "u", text: "pic")
            line.emotes = [Emote(range: 0..<3, name: "pic", url: url)]
            XCTAssertEqual(OneCommeHTML.comment(line), "pic", url)
        }
    }

    func testTheMemoryAndTheBadgesAreOnTheComment() throws {
        var line = ChatLine(id: "m2", user: "Sakura", login: "UCsakura", text: "初見です", badges: ["moderator", "member"],
                            sentAt: 1_764_320_000.5)
        line.nickname = "さくら"
        line.marks = [RowMark(.firstTime, "初見"), RowMark(.count, "#1")]
        let object = try json(OneCommeComment(line, stream: stream, now: 0))
        XCTAssertEqual(object["id"] as? String, stream.connectionID)
        XCTAssertEqual(object["service"] as? String, "youtube")
        XCTAssertEqual((object["meta"] as? [String: Any])?["tc"] as? Int, 1)
        let data = try XCTUnwrap(object["data"] as? [String: Any])
        XCTAssertEqual(data["isFirstTime"] as? Bool, true)
        XCTAssertEqual(data["nickname"] as? String, "さくら")
        XCTAssertEqual(data["displayName"] as? String, "Sakura")
        XCTAssertEqual(data["userId"] as? String, "UCsakura")
        XCTAssertEqual(data["isModerator"] as? Bool, true)
        XCTAssertEqual(data["isMember"] as? Bool, true)
        XCTAssertEqual(data["isOwner"] as? Bool, false)
        XCTAssertEqual(data["timestamp"] as? String, "2025-11-28T08:53:20.500Z")
        XCTAssertEqual(data["comment"] as? String, "初見です")
    }

    func testAPaidMessageHasItsColoursAndAmount() throws {
        let line = ChatLine(id: "p1", user: "Rich", text: "thanks", kind: .gift(name: "¥1,000", count: 1),
                            highlight: RGBColor(hex: "#1de9b6"))
        let data = try XCTUnwrap(try json(OneCommeComment(line, stream: stream, now: 0))["data"] as? [String: Any])
        XCTAssertEqual(data["hasGift"] as? Bool, true)
        XCTAssertEqual(data["paidText"] as? String, "¥1,000")
        XCTAssertEqual((data["colors"] as? [String: Any])?["bodyBackgroundColor"] as? String, "#1de9b6")
        let gift = ChatLine(id: "g1", user: "Fan", text: "", kind: .gift(name: "Star", count: 10))
        let giftData = try XCTUnwrap(try json(OneCommeComment(gift, stream: stream, now: 0))["data"] as? [String: Any])
        XCTAssertNil(giftData["colors"])
        XCTAssertEqual(giftData["giftCount"] as? Int, 10)
    }

    func testUnknownServicesAreExternal() throws {
        let other = OneCommeStream(platform: "websocket", channel: "relay", name: "relay",
                                   colour: RGBColor(red: 1, green: 2, blue: 3))
        let object = try json(OneCommeComment(ChatLine(id: "x", user: "u", text: "t"), stream: other, now: 0))
        XCTAssertEqual(object["service"] as? String, "external")
        XCTAssertEqual(object["id"] as? String, other.connectionID)
    }

    /// Streamers save `?includeIds=` in OBS: a stream keeps its id whatever its place in the list.
    func testAStreamsIdIsTheSameWhereverItIsAndDiffersFromAnothers() {
        let colour = RGBColor(red: 1, green: 2, blue: 3)
        let youtube = OneCommeStream(platform: "youtube", channel: "UCabc", name: "YouTube", colour: colour)
        XCTAssertEqual(youtube.connectionID, OneCommeStream(platform: "youtube", channel: "UCabc", name: "renamed", colour: colour).connectionID)
        XCTAssertTrue(youtube.connectionID.hasPrefix("commentbar-") && youtube.connectionID.count == 27, youtube.connectionID)
        XCTAssertNotEqual(youtube.connectionID, OneCommeStream(platform: "youtube", channel: "UCxyz", name: "YouTube", colour: colour).connectionID)
        XCTAssertNotEqual(youtube.connectionID, OneCommeStream(platform: "twitch", channel: "UCabc", name: "YouTube", colour: colour).connectionID)
        // Relays have no channel: their names tell them apart.
        XCTAssertNotEqual(OneCommeStream(platform: "websocket", channel: "", name: "ws://a", colour: colour).connectionID,
                          OneCommeStream(platform: "websocket", channel: "", name: "ws://b", colour: colour).connectionID)
    }

    func testThePageFilesAreInTheBinary() throws {
        let sdk = String(decoding: try XCTUnwrap(OneCommeAssets.file("origin/js/onesdk.js")), as: UTF8.self)
        XCTAssertTrue(sdk.contains("window.OneSDK"))
        XCTAssertNotNil(OneCommeAssets.file("origin/css/common.css"))
        XCTAssertGreaterThanOrEqual(OneCommeAssets.presets.count, 2)
        for preset in OneCommeAssets.presets {
            XCTAssertNotNil(OneCommeAssets.file("preset/\(preset)/index.html"), preset)
            XCTAssertNotNil(OneCommeAssets.file("preset/\(preset)/template.json"), preset)
        }
        // Vue is never in the binary (nor the repository): it is a file the packages install.
        XCTAssertNil(OneCommeAssets.file("origin/js/vue.min.js"))
    }
}
