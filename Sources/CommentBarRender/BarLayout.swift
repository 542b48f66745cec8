// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Where everything goes on a bar of a given size and theme. Pure geometry,
/// derived from the settings: recomputed only when they change.
struct BarLayout: Equatable {
    let width: Int
    let height: Int
    let kind: BarSettings.Layout
    let padding: Int
    let cornerRadius: Int
    /// The avatar's panel (its background image, the avatar circle, the mic badge): the bar layout's.
    let avatarPanel: PixelRect?
    /// The chat box's avatar: a small circle at the header's left end.
    let avatarCircle: PixelRect?
    /// The header row: on-air badge, clock, chat chip, viewers, gifts, mic and its meter; nil when
    /// the chat box shows none of them.
    let headerShown: Bool
    let header: HeaderLayout
    /// Only the chat connection and what is wrong (a chat box whose toggles show no header, while
    /// something needs saying).
    let statusOnly: Bool
    /// Where comment rows stack; in the ticker, the line the comments travel along (it starts
    /// right of the header's items, `StableLayer.laneStart`).
    let comments: PixelRect
    /// Space between two comment rows.
    let rowGap: Int
    /// The comments' font size in pixels (the header's is `header.textSize`).
    let textSize: Double
    /// Where the newest row is.
    let newest: BarSettings.NewestEdge

    /// `statusOnly`: the chat box's header row for the connection and a problem alone.
    init(settings: BarSettings, width: Int, height: Int, statusOnly: Bool = false) {
        self.width = width
        self.height = height
        kind = settings.layout
        newest = settings.newest
        let size = Double(settings.font.size)
        textSize = size
        let headerSize = (size * 0.85).rounded()
        padding = max(6, Int((size * 0.6).rounded()))
        cornerRadius = min(settings.cornerRadius, min(width, height) / 2)
        rowGap = max(2, Int((size * 0.3).rounded()))
        let headerHeight = Int((headerSize * 1.7).rounded())
        let headerItems = settings.showClock || settings.showViewers || settings.showGifts || settings.showMic
        // A bar lower than the header's row has no header (it is left out, never drawn past the
        // bar's edge); a low one has less room above it.
        let headerFits = headerHeight <= height
        let top = max(0, min(padding, (height - headerHeight) / 2))

        switch settings.layout {
        case .bar:
            var left = padding
            let side = min(height - 2 * padding, Int(Double(width) * 0.22))
            if settings.showAvatar, side >= 24 {
                avatarPanel = PixelRect(x: padding, y: padding, width: side, height: height - 2 * padding)
                left = padding + side + padding
            } else {
                avatarPanel = nil
            }
            avatarCircle = nil
            self.statusOnly = false
            headerShown = headerFits
            let headerRow = PixelRect(x: left, y: top, width: width - left - padding, height: headerHeight)
            // The mic shows in the header only when there is no avatar panel to carry its badge.
            header = HeaderLayout(row: headerRow, textSize: headerSize,
                                  micIcon: settings.showMic && avatarPanel == nil,
                                  meter: settings.showMic && settings.micMeter)
            let rowsTop = headerFits ? headerRow.maxY + max(4, padding / 2) : top
            comments = PixelRect(x: left, y: rowsTop, width: width - left - padding, height: height - padding - rowsTop)
        case .box:
            avatarPanel = nil
            self.statusOnly = statusOnly && !(headerItems || settings.showAvatar)
            headerShown = headerFits && (headerItems || settings.showAvatar || self.statusOnly)
            var headerRow = PixelRect(x: padding, y: top, width: width - 2 * padding, height: headerHeight)
            if settings.showAvatar, headerShown, !self.statusOnly {
                // No column: a circle the header's height, the header's items after it.
                avatarCircle = PixelRect(x: padding, y: top, width: headerHeight, height: headerHeight)
                let taken = headerHeight + max(4, padding / 2)
                headerRow = PixelRect(x: padding + taken, y: top, width: width - 2 * padding - taken,
                                      height: headerHeight)
            } else {
                avatarCircle = nil
            }
            header = HeaderLayout(row: headerRow, textSize: headerSize, micIcon: settings.showMic && !self.statusOnly,
                                  meter: settings.showMic && settings.micMeter && !self.statusOnly)
            let rowsTop = headerShown ? headerRow.maxY + max(4, padding / 2) : top
            comments = PixelRect(x: padding, y: rowsTop, width: width - 2 * padding, height: height - padding - rowsTop)
        case .ticker:
            avatarPanel = nil
            avatarCircle = nil
            self.statusOnly = false
            headerShown = headerFits
            let headerRow = PixelRect(x: padding, y: (height - headerHeight) / 2, width: width - 2 * padding,
                                      height: headerHeight)
            header = HeaderLayout(row: headerRow, textSize: headerSize, micIcon: settings.showMic,
                                  meter: settings.showMic && settings.micMeter)
            comments = PixelRect(x: padding, y: 0, width: width - 2 * padding, height: height)
        }
    }
}
