// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import XCTest

final class BarStateTests: XCTestCase {
    private func comment(_ id: String, _ user: String = "u", login: String? = nil) -> FeedEvent {
        .comment(ChatLine(id: id, user: user, login: login, text: "text \(id)"))
    }

    func testCommentsAreKeptNewestLastAndBounded() {
        var state = BarState()
        for index in 0..<(BarState.retainedLines + 50) { state.apply(comment("\(index)")) }
        XCTAssertEqual(state.lines.count, BarState.retainedLines)
        XCTAssertEqual(state.lines.last?.id, "\(BarState.retainedLines + 49)")
        XCTAssertEqual(state.lines.first?.id, "50")
    }

    func testDeletesByIdByUserAndClear() {
        var state = BarState()
        state.apply(comment("1", "Alice", login: "alice"))
        state.apply(comment("2", "Bob"))
        state.apply(comment("3", "ALICE", login: "alice"))
        let revision = state.linesRevision
        state.apply(.delete(id: "2"))
        XCTAssertEqual(state.lines.map(\.id), ["1", "3"])
        XCTAssertGreaterThan(state.linesRevision, revision)
        state.apply(.delete(id: "nope"))
        state.apply(.deleteUser(user: "Alice"))
        XCTAssertEqual(state.lines.map(\.id), [])
        state.apply(comment("4"))
        state.apply(.clear)
        XCTAssertTrue(state.lines.isEmpty)
    }

    /// The renderer tells rows apart by their revision alone (it keeps no copy of them): two
    /// copies of one state, each given another comment, must not end at the same revision.
    func testCopiesChangedApartNeverShareARevision() {
        var state = BarState()
        state.apply(comment("1"))
        var left = state, right = state
        XCTAssertEqual(left.linesRevision, right.linesRevision)
        left.apply(comment("left"))
        right.apply(comment("right"))
        XCTAssertNotEqual(left.linesRevision, right.linesRevision)
        right.apply(.clear)
        left.apply(.clear)
        XCTAssertNotEqual(left.linesRevision, right.linesRevision)
    }

    func testRepeatedIdReplacesInPlace() {
        var state = BarState()
        state.apply(comment("1"))
        state.apply(comment("2"))
        state.apply(.comment(ChatLine(id: "1", user: "u", text: "edited")))
        XCTAssertEqual(state.lines.map(\.text), ["edited", "text 2"])
    }

    func testGiftsCountAndCountersClamp() {
        var state = BarState()
        state.apply(.gift(ChatLine(id: "g", user: "u", text: "", kind: .gift(name: "Star", count: 10))))
        state.apply(.gift(ChatLine(id: "h", user: "u", text: "", kind: .gift(name: "Star", count: 5))))
        XCTAssertEqual(state.giftsTotal, 15)
        state.apply(.viewers(-3))
        XCTAssertEqual(state.viewers, 0)
        XCTAssertNil(state.micOn, "no mic event yet: unknown, never on")
        state.apply(.mic(on: false))
        XCTAssertEqual(state.micOn, false)
        state.apply(.avatar(.file(path: "/a.png")))
        state.apply(.background(nil))
        XCTAssertEqual(state.avatar, .file(path: "/a.png"))
        XCTAssertNil(state.background)
        state.apply(.relayStatus(.error(message: "upstream down")))
        XCTAssertEqual(state.relayStatus, .error(message: "upstream down"))
        XCTAssertEqual(state.status, .connecting, "a relay's word never sets the connection's state")
        state.apply(.relayStatus(.live))
        XCTAssertNil(state.relayStatus)
    }

    func testHostileNumbersDoNotTrap() throws {
        var state = BarState()
        for id in ["a", "b", "c"] {
            state.apply(.gift(ChatLine(id: id, user: "u", text: "", kind: .gift(name: "x", count: Int.max))))
        }
        XCTAssertEqual(state.giftsTotal, FeedEventJSON.maxCount * 3)
        state.apply(.viewers(Int.max))
        XCTAssertEqual(state.viewers, FeedEventJSON.maxCount)
        XCTAssertEqual(BarState.elapsedText(since: -1e300, now: 0), "9999:59:59")
        XCTAssertEqual(BarState.elapsedText(since: 0, now: .infinity), "9999:59:59")
        if case .event(.gift(let line), _) = try FeedEventJSON.parse(#"{"type":"gift","id":"g","user":"u","gift":"g","count":9223372036854775807}"#),
           case .gift(_, let count) = line.kind {
            XCTAssertEqual(count, FeedEventJSON.maxCount)
        } else {
            XCTFail("a gift")
        }
    }

    func testElapsedText() {
        XCTAssertEqual(BarState.elapsedText(since: nil, now: 100), "--:--:--")
        XCTAssertEqual(BarState.elapsedText(since: 100, now: 100), "00:00:00")
        XCTAssertEqual(BarState.elapsedText(since: 0, now: 4985.9), "01:23:05")
        XCTAssertEqual(BarState.elapsedText(since: 0, now: 360_000), "100:00:00", "a 100-hour stream shows 100 hours")
        XCTAssertEqual(BarState.elapsedText(since: 0, now: 359_999), "99:59:59")
        XCTAssertEqual(BarState.elapsedText(since: 100, now: 50), "00:00:00", "a start in the future is not negative")
    }
}

final class SettingsAndColorTests: XCTestCase {
    func testDefaultsAndOBSJSON() throws {
        XCTAssertEqual(try BarSettings.decode(json: Data("{}".utf8)), BarSettings())
        let json = """
        {"service":"file","stream_id":"/tmp/x.jsonl","width":1920,"height":99999,"max_lines":0,
         "font":{"face":"Noto Sans","size":40,"flags":1},"text_color":4278190335,"bg_opacity":250,
         "show_clock":false,"fps":"fast","unknown_key":[1,2]}
        """
        let settings = try BarSettings.decode(json: Data(json.utf8))
        XCTAssertEqual(settings.service, "file")
        XCTAssertEqual(settings.width, 1920)
        XCTAssertEqual(settings.height, BarSettings.sizeRange.upperBound)
        XCTAssertEqual(settings.maxLines, 1)
        XCTAssertEqual(settings.font.face, "Noto Sans")
        XCTAssertEqual(settings.font.style, "Regular")
        XCTAssertTrue(settings.font.bold)
        XCTAssertEqual(settings.textColor, 0xFF00_00FF)
        XCTAssertEqual(settings.backgroundOpacity, 100)
        XCTAssertFalse(settings.showClock)
        XCTAssertEqual(settings.maxFPS, 30, "a mistyped value keeps its default")
        XCTAssertThrowsError(try BarSettings.decode(json: Data("[1]".utf8)))
    }

    func testColours() {
        XCTAssertEqual(RGBColor(hex: "#ff7eb6"), RGBColor(red: 0xFF, green: 0x7E, blue: 0xB6))
        XCTAssertEqual(RGBColor(hex: "00ff00")?.hex, "#00ff00")
        XCTAssertNil(RGBColor(hex: "#ff7eb"))
        XCTAssertNil(RGBColor(hex: "#gg0000"))
        XCTAssertEqual(RGBColor(obsABGR: 0xFF33_2211), RGBColor(red: 0x11, green: 0x22, blue: 0x33))
    }
}
