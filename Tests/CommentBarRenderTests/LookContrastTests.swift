// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarRender
import XCTest

/// Names and messages keep WCAG's 4.5:1 against the row behind them (issue 38), in every
/// built-in theme and name colour mode, on dark and light backgrounds alike.
final class LookContrastTests: XCTestCase {
    func testTheWCAGFormula() throws {
        let white = RGBColor(red: 255, green: 255, blue: 255), black = RGBColor(red: 0, green: 0, blue: 0)
        XCTAssertEqual(Contrast.ratio(white, black), 21, accuracy: 1e-9)
        XCTAssertEqual(Contrast.ratio(black, white), 21, accuracy: 1e-9)
        XCTAssertEqual(Contrast.ratio(try XCTUnwrap(RGBColor(hex: "#777777")), white), 4.48, accuracy: 0.01)
        XCTAssertEqual(Contrast.ratio(try XCTUnwrap(RGBColor(hex: "#767676")), white), 4.54, accuracy: 0.01)
        XCTAssertEqual(Contrast.luminance(try XCTUnwrap(RGBColor(hex: "#808080"))), 0.2159, accuracy: 0.0005)
    }

    /// Rows of every kind: viewers with and without colours (dark ones too), each platform's
    /// badge, every role, a highlight, a gift, a notice.
    private func rows() -> [ChatLine] {
        var lines = ["#000080", "#1a1a1a", "#ffff00", "#ffffff", "#ff7eb6", "#00ff00", nil].enumerated().map { index, color in
            row("c\(index)", "viewer\(index)", "hello", color: color)
        }
        for (index, badges) in [["broadcaster"], ["moderator/1"], ["vip"], ["subscriber/12"], ["member"], []].enumerated() {
            lines.append(row("r\(index)", "role\(index)", "hi", badges: badges))
        }
        for (index, rgb) in [0x9146FF, 0xFF0000, 0x53FC18, 0xFFEB3B, 0x000000].enumerated() {
            var line = row("p\(index)", "platform\(index)", "yo")
            line.platformBadge = PlatformBadge(rgb: UInt32(rgb), sign: .dot)
            lines.append(line)
        }
        var highlighted = row("h", "paid", "thank you", color: "#ffffff")
        highlighted.highlight = RGBColor(hex: "#ffca28")
        lines.append(highlighted)
        lines.append(ChatLine(id: "g", user: "giver", text: "", kind: .gift(name: "Star", count: 3)))
        lines.append(ChatLine(id: "n", user: "", text: "raid incoming", kind: .notice))
        return lines
    }

    func testEveryThemeAndNameColourModeKeepsFourAndAHalfToOne() throws {
        let themes = Theme.builtinNames.map { #"{"theme":"\#($0)""# }
            + [#"{"bg_color":4294967295,"text_color":4294967295"#, #"{"bg_color":4286611584,"row_style":"bubble""#,
               #"{"text_outline":2,"outline_color":4294967295,"text_color":4294967295"#]
        for theme in themes {
            for mode in BarSettings.NameColors.allCases {
                let settings = try lookSettings(theme + #","name_colors":"\#(mode.rawValue)"}"#)
                let style = TextStyle(settings: settings, layout: BarLayout(settings: settings, width: 1280, height: 360))
                let viewers = ViewerColors()
                for line in rows() {
                    let colors = RowColors(line: line, style: style, viewers: viewers)
                    let context = "\(theme) \(mode) \(line.id)"
                    XCTAssertGreaterThanOrEqual(Contrast.ratio(colors.name, colors.backdrop), 4.5, "name: \(context)")
                    XCTAssertGreaterThanOrEqual(Contrast.ratio(colors.text.rgb, colors.backdrop), 4.5, "text: \(context)")
                    XCTAssertGreaterThanOrEqual(Contrast.ratio(colors.gift, colors.backdrop), 4.5, "gift: \(context)")
                    XCTAssertGreaterThanOrEqual(Contrast.ratio(colors.notice, colors.backdrop), 4.5, "notice: \(context)")
                }
            }
        }
    }

    /// The default look keeps today's colours: a readable colour is never moved.
    func testColoursThatReadWellAreKept() throws {
        let settings = BarSettings()
        let style = TextStyle(settings: settings, layout: BarLayout(settings: settings, width: 1280, height: 360))
        let colors = RowColors(line: row("a", "さくら", "hi", color: "#ff7eb6"), style: style, viewers: nil)
        XCTAssertEqual(colors.name, RGBColor(hex: "#ff7eb6"))
        XCTAssertEqual(colors.text, RGBA(1, 1, 1))
        XCTAssertEqual(colors.gift, Palette.gift)
    }

    /// A viewer's name has one colour on every row, whether or not the row carries one.
    func testAViewersColourIsTheSameOnEveryRow() throws {
        let settings = try lookSettings(#"{"theme":"light"}"#)
        let style = TextStyle(settings: settings, layout: BarLayout(settings: settings, width: 1280, height: 360))
        let viewers = ViewerColors()
        var first = ChatLine(id: "1", user: "アキ", login: "aki_42", text: "こんにちは", color: RGBColor(hex: "#ff7eb6"))
        first.nickname = "アキ"
        var second = ChatLine(id: "2", user: "アキ", login: "aki_42", text: "また来たよ")
        second.nickname = "アキ"
        let a = RowColors(line: first, style: style, viewers: viewers).name
        let b = RowColors(line: second, style: style, viewers: viewers).name
        XCTAssertEqual(a, b, "the row without a colour takes the viewer's")
        XCTAssertNotEqual(RowColors(line: second, style: style, viewers: ViewerColors()).name, a,
                          "(without what the bar saw before it would have another)")
    }
}
