// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Where everything goes on a bar of a given size and theme. Pure geometry,
/// derived from the settings: recomputed only when they change.
struct BarLayout: Equatable {
    let width: Int
    let height: Int
    let padding: Int
    let cornerRadius: Int
    /// The avatar's panel (its background image, the avatar circle, the mic badge).
    let avatarPanel: PixelRect?
    /// The header row: on-air badge, clock, chat chip, viewers, gifts, mic and its meter.
    let header: HeaderLayout
    /// Where comment rows stack, newest at the bottom.
    let comments: PixelRect
    /// Space between two comment rows.
    let rowGap: Int
    /// The comments' font size in pixels (the header's is `header.textSize`).
    let textSize: Double

    init(settings: BarSettings, width: Int, height: Int) {
        self.width = width
        self.height = height
        let size = Double(settings.font.size)
        textSize = size
        let headerSize = (size * 0.85).rounded()
        padding = max(6, Int((size * 0.6).rounded()))
        cornerRadius = min(settings.cornerRadius, min(width, height) / 2)
        rowGap = max(2, Int((size * 0.3).rounded()))

        var left = padding
        if settings.showAvatar {
            let side = min(height - 2 * padding, Int(Double(width) * 0.22))
            if side >= 24 {
                avatarPanel = PixelRect(x: padding, y: padding, width: side, height: height - 2 * padding)
                left = padding + side + padding
            } else {
                avatarPanel = nil
            }
        } else {
            avatarPanel = nil
        }
        let headerHeight = Int((headerSize * 1.7).rounded())
        let headerRow = PixelRect(x: left, y: padding, width: width - left - padding, height: headerHeight)
        // The mic shows in the header only when there is no avatar panel to carry its badge.
        header = HeaderLayout(row: headerRow, textSize: headerSize,
                              micIcon: settings.showMic && avatarPanel == nil,
                              meter: settings.showMic && settings.micMeter)
        let top = headerRow.maxY + max(4, padding / 2)
        comments = PixelRect(x: left, y: top, width: width - left - padding, height: height - padding - top)
    }
}
