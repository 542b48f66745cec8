// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Everything a comment row's laid-out image depends on besides the comment itself.
/// Rows are laid out once and kept while this stays equal: a settings change that
/// leaves it equal (colours of the bar, the clock, counters) lays out no row again.
struct TextStyle: Equatable {
    var family: String
    /// Pixels.
    var size: Double
    /// The OBS font picker's bold and italic, for the comment text.
    var bold = false
    var italic = false
    var textColor: RGBA
    /// The comment area's width: rows wrap to it.
    var width: Int
    /// Wrapped lines one comment may take before it is cut with an ellipsis.
    var maxLinesPerComment: Int
    var showBadges = true
    var animateEmotes = true
    /// Outline, shadow, bubble and name colours (issue 38).
    var look = RowLook()
}

/// How names and messages are drawn beyond their font: the theme's part of a row's image.
struct RowLook: Equatable {
    /// Pixels of outline around the glyphs (0: none), and the shadow, both in `outlineColor`.
    var outline = 0
    var shadow = false
    var outlineColor = RGBA(0, 0, 0)
    /// Each row on a bubble of this colour (`row_style` bubble); nil: on the bar.
    var bubble: RGBA?
    /// What lies behind the text, which its colours keep 4.5:1 against.
    var backdrop = RGBColor(red: 0x14, green: 0x14, blue: 0x1E)
    var nameColors = BarSettings.NameColors.viewer
    /// One line, never wrapped (the ticker).
    var singleLine = false

    /// How far the outline and the shadow reach beyond the text, in whole pixels.
    var margin: Int { outline + (shadow ? shadowOffset : 0) }
    var shadowOffset: Int { shadow ? max(1, outline / 2 + 1) : 0 }
}

extension TextStyle {
    /// The ticker's comments are one line of at most this many times the bar's width.
    static let tickerWidths = 3

    /// The rows' style on a bar with these settings and this layout.
    init(settings: BarSettings, layout: BarLayout) {
        let ticker = settings.layout == .ticker
        let linesPerComment: Int
        switch settings.layout {
        case .bar: linesPerComment = min(3, settings.maxLines)
        case .box: linesPerComment = settings.maxLines
        case .ticker: linesPerComment = 1
        }
        self.init(family: settings.font.face, size: layout.textSize, bold: settings.font.bold,
                  italic: settings.font.italic, textColor: RGBA(obsABGR: settings.textColor),
                  width: ticker ? min(8000, max(layout.width, 64) * Self.tickerWidths) : layout.comments.width,
                  maxLinesPerComment: linesPerComment, showBadges: settings.showBadges,
                  animateEmotes: settings.animateEmotes && !ticker, look: RowLook(settings: settings))
    }
}

extension RowLook {
    init(settings: BarSettings) {
        outline = settings.textOutline
        shadow = settings.textShadow
        outlineColor = RGBA(obsABGR: settings.outlineColor).with(alpha: 1)
        let bar = RGBColor(obsABGR: settings.backgroundColor)
        if settings.rowStyle == .bubble {
            // A shade off the bar's colour, nearly opaque: rows stand apart on it and over a game.
            let shade = Contrast.isLight(bar) ? RGBColor(red: 0, green: 0, blue: 0) : RGBColor(red: 255, green: 255, blue: 255)
            let color = Contrast.over(shade, alpha: Contrast.isLight(bar) ? 0.07 : 0.14, on: bar)
            bubble = RGBA(color, alpha: 0.9)
        }
        if outline > 0 {
            backdrop = outlineColor.rgb
        } else if let bubble {
            backdrop = Contrast.over(bubble.rgb, alpha: bubble.alpha, on: bar)
        } else {
            backdrop = bar
        }
        nameColors = settings.nameColors
        singleLine = settings.layout == .ticker
    }
}

extension RowLook {
    /// The header's text (the clock, the counters): the rows' outline and shadow, nothing else.
    static func header(_ settings: BarSettings) -> RowLook {
        RowLook(outline: settings.textOutline, shadow: settings.textShadow,
                outlineColor: RGBA(obsABGR: settings.outlineColor).with(alpha: 1))
    }
}

extension RGBA {
    /// The colour without its alpha, in bytes.
    var rgb: RGBColor {
        func byte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, (value * 255).rounded()))) }
        return RGBColor(red: byte(red), green: byte(green), blue: byte(blue))
    }
}
