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
}

extension TextStyle {
    /// The rows' style on a bar with these settings and this layout.
    init(settings: BarSettings, layout: BarLayout) {
        self.init(family: settings.font.face, size: layout.textSize, bold: settings.font.bold,
                  italic: settings.font.italic, textColor: RGBA(obsABGR: settings.textColor),
                  width: layout.comments.width, maxLinesPerComment: min(3, settings.maxLines),
                  showBadges: settings.showBadges, animateEmotes: settings.animateEmotes)
    }
}
