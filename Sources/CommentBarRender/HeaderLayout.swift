// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The header row's geometry on a bar of a given size and theme, computed once with
/// `BarLayout` (every ratio of the header is here); drawing only reads it.
///
/// Items of fixed size have their rectangles here (the mic icon, the level meter). Items
/// whose width is measured text flow from the row's ends through a `HeaderFlow`, a gap
/// after each: from the left the on-air badge, the clock, the chat chip, then a problem's
/// detail in the room left; from the right, after the mic and the meter, the gifts and
/// the viewers (each a number with its icon to the left).
struct HeaderLayout: Equatable {
    /// A square icon: its top-left corner and side, in pixels.
    struct Square: Equatable {
        var x: Double
        var y: Double
        var side: Double
    }

    /// The whole row.
    let row: PixelRect
    /// The header's text size in pixels: the counters' numbers and the clock.
    let textSize: Double
    /// The row's middle, on which every item is centred.
    let centerY: Double
    /// Space after each item.
    let gap: Int
    /// The on-air badge (LIVE, REC, OFF AIR): its height and its label's size.
    let badgeHeight: Double
    let badgeTextSize: Double
    /// The chat connection chip: its height and its label's size.
    let chipHeight: Double
    let chipTextSize: Double
    /// The counters' icons (square) and the space between an icon and its number.
    let iconSize: Double
    let iconGap: Int
    /// A problem's detail: its text size, and the least room worth showing it in.
    let detailTextSize: Double
    let detailMinWidth: Int
    /// The mic in the header when the avatar panel does not carry it as a badge.
    let micIcon: Square?
    /// The mic level meter, when it is on.
    let meter: PixelRect?
    /// Where the counters end on the right: left of the mic and the meter.
    let countersMaxX: Int

    init(row: PixelRect, textSize size: Double, micIcon showsMicIcon: Bool, meter showsMeter: Bool) {
        self.row = row
        textSize = size
        centerY = Double(row.y) + Double(row.height) / 2
        gap = Int((size * 0.6).rounded())
        badgeHeight = Double(row.height) * 0.72
        badgeTextSize = size * 0.8
        chipHeight = badgeHeight * 0.8
        chipTextSize = size * 0.62
        iconSize = (size * 1.1).rounded()
        iconGap = Int(size * 0.25)
        detailTextSize = size * 0.8
        detailMinWidth = Int(size * 2)

        var right = row.maxX
        if showsMicIcon {
            right -= Int(iconSize)
            micIcon = Square(x: Double(right), y: centerY - iconSize / 2, side: iconSize)
            right -= gap
        } else {
            micIcon = nil
        }
        if showsMeter {
            let meterWidth = Int((size * 2.2).rounded())
            right -= meterWidth
            meter = PixelRect(x: right, y: Int((centerY - iconSize * 0.35).rounded()), width: meterWidth,
                              height: Int((iconSize * 0.7).rounded()))
            right -= gap
        } else {
            meter = nil
        }
        countersMaxX = right
    }

    /// The box of an item `height` tall with its left edge at `x`, centred on the row.
    func centered(x: Int, width: Int, height: Int) -> PixelRect {
        PixelRect(x: x, y: Int(top(ofHeight: height).rounded()), width: width, height: height)
    }

    /// Where an item `height` tall starts so that it is centred on the row (whole pixels for text).
    func top(ofHeight height: Int) -> Double { (centerY - Double(height) / 2).rounded() }

    /// Where a counter's icon goes with its left edge at `x`.
    func counterIcon(x: Int) -> Square { Square(x: Double(x), y: centerY - iconSize / 2, side: iconSize) }
}

/// Places items of measured width along the header, from the left edge rightwards and
/// from the counters' end leftwards, with the layout's gap after each.
struct HeaderFlow {
    /// Where the next item from the left starts.
    private(set) var left: Int
    /// Where the next item from the right ends.
    private(set) var right: Int
    private let gap: Int

    init(_ header: HeaderLayout) {
        left = header.row.x
        right = header.countersMaxX
        gap = header.gap
    }

    /// The room left between the two sides.
    var room: Int { right - left }

    /// Takes `width` pixels from the left side (and a gap after them); returns their left edge.
    mutating func fromLeft(width: Int) -> Int {
        let x = left
        left += width + gap
        return x
    }

    /// Takes `width` pixels from the right side, followed (leftwards) by `spacing`; returns their left edge.
    mutating func fromRight(width: Int, spacing: Int? = nil) -> Int {
        right -= width
        let x = right
        right -= spacing ?? gap
        return x
    }
}

/// Which of the header's items fit, and where (issue 38: no item is ever drawn over another, at
/// any size). Widths are measured first; items are kept by importance while their widths and gaps
/// fit in the row, the rest are left out; the kept ones flow from the row's ends as always (the
/// ticker's all from the left, in at most `share` of the row, leaving the rest to the comments).
struct HeaderPlan {
    enum Item: Hashable {
        case onAir, clock, chip, mic, meter, gifts
        /// The viewer count, or each stream's (`viewers_mode` each), by its place in the list.
        case viewers(Int)
    }

    struct Entry {
        var item: Item
        var width: Int
        /// Higher stays longer.
        var priority: Int
    }

    /// Where each kept item's box starts (its left edge); items left out are absent. (A few items:
    /// a list, not a hashed table, is all they need.)
    private var kept: [(item: Item, x: Int)] = []
    /// The room between the kept items of the two sides (where a problem's detail goes).
    private(set) var room: (left: Int, right: Int)

    /// `entries`: in their order from the row's left end (`leftItems`) and, for the others, from its
    /// right end inwards.
    init(_ entries: [Entry], leftItems: [Item], header: HeaderLayout, allFromLeft: Bool = false, share: Double = 1) {
        let gap = header.gap
        let limit = Int(Double(header.row.width) * share)
        var fits = [Bool](repeating: false, count: entries.count)
        var used = 0
        for index in entries.indices.sorted(by: { entries[$0].priority > entries[$1].priority })
        where entries[index].width > 0 {
            let needed = entries[index].width + (used == 0 ? 0 : gap)
            guard used + needed <= limit else { continue }
            fits[index] = true
            used += needed
        }
        var left = header.row.x
        var right = header.row.maxX
        for (index, entry) in entries.enumerated() where fits[index] && (allFromLeft || leftItems.contains(entry.item)) {
            kept.append((entry.item, left))
            left += entry.width + gap
        }
        if !allFromLeft {
            for (index, entry) in entries.enumerated() where fits[index] && !leftItems.contains(entry.item) {
                right -= entry.width
                kept.append((entry.item, right))
                right -= gap
            }
        } else {
            right = min(right, header.row.x + limit)
        }
        room = (left, right)
    }

    /// The left edge of `item`'s box; nil when it is left out.
    func x(_ item: Item) -> Int? { kept.first { $0.item == item }?.x }
}
