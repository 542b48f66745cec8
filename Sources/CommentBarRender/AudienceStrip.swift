// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CPangoCairo
import CommentBarCore

/// The audience taking part (issue 48), drawn in a strip of its own: the poll (its question with
/// the time left, each option with a proportion bar and its count), the 参加型 queue (playing now,
/// the next five, how many wait) and the giveaway's winner. Like the pinned comment's strip it is
/// laid out and drawn once, into its own image, and kept while what it shows and its place stay
/// the same (`Shape`): a vote storm lays it out at most as often as the session's view changes
/// (four times a second, `ParticipationPart`).
///
/// Two shapes: lines stacked under the comment area's top (the bar, the box), or one line of
/// segments at the ticker's right end (wrapped over the lines there are in a high, narrow
/// ticker). What does not fit is left out by rank: the question first, then the leading option,
/// the winner, who plays now, the other options, the next ones; an option's count goes before its
/// bar. The text sits on an opaque panel whose colour is known,
/// so its contrast is exact: at least 4.5:1 (`Contrast.readable`) on every theme.
final class AudienceStrip {
    /// What the strip depends on: the same shape, the same image.
    struct Shape: Equatable {
        var view: AudienceView
        var words = AudienceWords.english
        var style: TextStyle
        /// The room it may take: its width, and the height it may use (stacked) or its one line's.
        var maxWidth: Int
        var maxHeight: Int
        var inline: Bool
    }

    let shape: Shape
    /// Nil when nothing fits (or nothing is shown).
    let image: ImageSurface?
    /// The panel behind the text, and the text's colour on it.
    let panel: RGBColor
    let text: RGBColor
    var width: Int { image?.width ?? 0 }
    var height: Int { image?.height ?? 0 }

    /// The proportion bars' colour (no text is drawn on it).
    static let accent = RGBA(hex: "#26c6da")

    /// One line the strip may show; `rank` orders what is kept when not all fit (lower first).
    struct Line {
        var left: String
        var right: String?
        /// An option's share of the votes: a proportion bar when there is room.
        var fraction: Double?
        var bold = false
        var rank: Int
        /// The line as one segment of the ticker's shape (nil: the left text, then the right).
        var inline: String?
    }

    init(shape: Shape, engine: TextEngine) {
        self.shape = shape
        let style = shape.style
        panel = Contrast.over(Self.accent.rgb, alpha: 0.16, on: style.look.backdrop)
        text = Contrast.readable(style.textColor.rgb, on: panel)
        let lines = Self.lines(of: shape.view, words: shape.words)
        let size = Self.textSize(style)
        let font = TextEngine.font(family: style.family, size: size)
        defer { pango_font_description_free(font) }
        let bold = TextEngine.font(family: style.family, size: size, bold: true)
        defer { pango_font_description_free(bold) }
        let fonts = Fonts(regular: font, bold: bold)
        image = shape.inline
            ? Self.drawInline(lines, shape: shape, fonts: fonts, size: size, engine: engine, panel: panel, text: text)
            : Self.drawStacked(lines, shape: shape, fonts: fonts, size: size, engine: engine, panel: panel, text: text)
    }

    private struct Fonts {
        let regular: OpaquePointer
        let bold: OpaquePointer
        func of(_ line: Line) -> OpaquePointer { line.bold ? bold : regular }
    }

    /// Outside text (viewers' names, the streamer's question and options) isolated (FSI … PDI), as
    /// the rows isolate names: a right-to-left name cannot turn the commas and counts around it.
    static func isolated(_ text: String) -> String { "\u{2068}" + text + "\u{2069}" }

    /// What the view says, in the order the strip shows it, each line with its rank.
    static func lines(of view: AudienceView, words: AudienceWords = .english) -> [Line] {
        var lines: [Line] = []
        if let poll = view.poll {
            let question = isolated(poll.question)
            let right = poll.closed ? "\(words.closed) · \(poll.total)" : poll.secondsLeft.map(Self.clock)
            // In one line the time goes first (it survives the question being cut), and a closed
            // poll's total is left out: the room goes to the leading option.
            let shortRight = poll.closed ? words.closed : right
            lines.append(Line(left: "📊 " + question, right: right, bold: true, rank: 0,
                              inline: "📊 " + (shortRight.map { $0 + "  " } ?? "") + question))
            let leading = poll.leading
            let total = max(poll.total, 1)
            for (index, option) in poll.options.enumerated() {
                let text = isolated(option.text)
                lines.append(Line(left: "\(index + 1). \(text)", right: "\(option.votes)",
                                  fraction: Double(option.votes) / Double(total),
                                  bold: poll.closed && index == leading && option.votes > 0,
                                  rank: index == leading ? 1 : 10 + index, inline: "\(text) \(option.votes)"))
            }
        }
        if let queue = view.queue {
            let playing = queue.playing.isEmpty ? "—" : queue.playing.map(isolated).joined(separator: ", ")
            lines.append(Line(left: "▶ " + playing, right: words.playing, bold: true, rank: 3))
            let waiting = words.waiting(queue.waiting) + (queue.full ? " · " + words.full : "")
            let next = queue.next.isEmpty ? isolated(queue.joinWord) : words.next + queue.next.map(isolated).joined(separator: ", ")
            // One line has no room for the names: the count says how long the queue is. A full
            // queue says so before the names of who plays (viewers typing the join word see why
            // nothing happens).
            lines.append(Line(left: next, right: waiting, rank: queue.full ? 2 : 20, inline: waiting))
        }
        if let winner = view.winner {
            lines.append(Line(left: "🏆 " + isolated(winner.name), right: winner.platform, bold: true, rank: 2))
        }
        return lines
    }

    /// `seconds` as the strip's clock: 0:42, 12:05.
    static func clock(_ seconds: Int) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        return "\(minutes):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// The lines that fit (`count`), by rank, kept in their order.
    static func kept(_ lines: [Line], count: Int) -> [Line] {
        // Two lines may share a rank (a full queue's count and the winner): at most `count` either way.
        let chosen = Set(lines.indices.sorted { (lines[$0].rank, $0) < (lines[$1].rank, $1) }.prefix(max(0, count)))
        return lines.indices.filter(chosen.contains).map { lines[$0] }
    }

    /// The strip's text size for rows of `style`: a little smaller than the rows', as the header's.
    static func textSize(_ style: TextStyle) -> Double { max(6, (style.size * 0.85).rounded()) }

    /// The height of a stacked strip of `lines` lines in `style`.
    static func stackedHeight(lines: Int, style: TextStyle) -> Int {
        let size = textSize(style)
        return lines * Int((size * 1.35).rounded()) + 2 * max(2, Int((size * 0.35).rounded()))
    }

    private static func drawStacked(_ lines: [Line], shape: Shape, fonts: Fonts, size: Double, engine: TextEngine,
                                    panel: RGBColor, text: RGBColor) -> ImageSurface? {
        let pad = max(2, Int((size * 0.35).rounded()))
        let lineHeight = Int((size * 1.35).rounded())
        let fitting = (shape.maxHeight - 2 * pad) / lineHeight
        // The counts in one column, so that the options' bars line up.
        let countColumn = lines.filter { $0.fraction != nil }.compactMap { line in
            line.right.map { engine.layout($0, font: fonts.of(line)).width }
        }.max() ?? 0
        let shown = kept(lines, count: fitting)
        guard !shown.isEmpty, shape.maxWidth > 4 * pad else { return nil }
        let width = shape.maxWidth
        let image = ImageSurface(width: width, height: shown.count * lineHeight + 2 * pad)
        image.withContext { cr in
            fill(cr, width: width, height: image.height, radius: size * 0.4, panel: panel)
            for (index, line) in shown.enumerated() {
                let top = pad + index * lineHeight
                drawLine(line, in: cr, x: pad, y: top, width: width - 2 * pad, height: lineHeight, size: size,
                         countColumn: countColumn, font: fonts.of(line), engine: engine, text: text)
            }
        }
        return image
    }

    /// One stacked line: the left text, ellipsized to its room; the count (or time) at the right
    /// end; between them an option's bar, only when the text keeps room enough beside it.
    /// `countColumn`: the width an option's count takes at least.
    private static func drawLine(_ line: Line, in cr: OpaquePointer, x: Int, y: Int, width: Int, height: Int,
                                 size: Double, countColumn: Int, font: OpaquePointer, engine: TextEngine, text: RGBColor) {
        let gap = Int((size * 0.5).rounded())
        let right = line.right.map { engine.layout($0, font: font) }
        let rightWidth = max(right?.width ?? 0, line.fraction != nil ? countColumn : 0)
        var room = width - (right != nil ? rightWidth + gap : 0)
        if let right {
            right.draw(cr, x: Double(x + width - right.width), y: Double(y + (height - right.height) / 2),
                       color: RGBA(text))
        }
        if let fraction = line.fraction {
            let barWidth = Int(Double(width) * 0.3)
            if room - barWidth - gap >= Int(size * 5) {
                let barX = x + room - barWidth
                let barHeight = max(3, Int((size * 0.45).rounded()))
                let barY = Double(y + (height - barHeight) / 2)
                Icons.roundedRect(cr, Double(barX), barY, Double(barWidth), Double(barHeight), Double(barHeight) / 2)
                RGBA(text, alpha: 0.22).setSource(cr)
                cairo_fill(cr)
                let filled = Double(barWidth) * min(max(fraction, 0), 1)
                if filled >= 1 {
                    Icons.roundedRect(cr, Double(barX), barY, filled, Double(barHeight), min(Double(barHeight) / 2, filled / 2))
                    accent.setSource(cr)
                    cairo_fill(cr)
                }
                room -= barWidth + gap
            }
        }
        guard room > 0 else { return }
        let left = engine.layout(line.left, font: font, singleParagraph: true).fitting(width: room)
        left.draw(cr, x: Double(x), y: Double(y + (height - left.height) / 2), color: RGBA(text))
    }

    /// The ticker's shape: segments left to right on one line, each its lines' text, kept by rank
    /// while they fit in `maxWidth`. Counts only: no bar in a line this low.
    private static func drawInline(_ lines: [Line], shape: Shape, fonts: Fonts, size: Double, engine: TextEngine,
                                   panel: RGBColor, text: RGBColor) -> ImageSurface? {
        let pad = max(2, Int((size * 0.35).rounded()))
        let gap = Int((size * 0.8).rounded())
        let height = min(shape.maxHeight, Int((size * 1.5).rounded()))
        guard height >= Int(size) else { return nil }
        let laid = lines.map { line in
            let text = line.inline ?? line.left + (line.right.map { "  " + $0 } ?? "")
            return (line, engine.layout(text, font: fonts.of(line), singleParagraph: true))
        }
        // A ticker as high as two of the strip's lines or more (a small, high source) whose first
        // segment does not fit in one line wraps its segments instead of cutting the first to a
        // few characters.
        let lineHeight = Int((size * 1.35).rounded())
        if let first = laid.min(by: { $0.0.rank < $1.0.rank }), first.1.width + 2 * pad > shape.maxWidth,
           (shape.maxHeight - 2 * pad) / lineHeight >= 2 {
            return drawWrapped(laid.map(\.0), shape: shape, fonts: fonts, size: size, engine: engine, panel: panel,
                               text: text)
        }
        // By rank, while they fit: the question is cut to its room when even it alone does not.
        var chosen: Set<Int> = []
        var used = 2 * pad
        for index in laid.indices.sorted(by: { laid[$0].0.rank < laid[$1].0.rank }) {
            let width = laid[index].1.width + (chosen.isEmpty ? 0 : gap)
            if used + width <= shape.maxWidth {
                chosen.insert(index)
                used += width
            } else if chosen.isEmpty {
                chosen.insert(index)
                used = shape.maxWidth
                break
            } else {
                break
            }
        }
        guard !chosen.isEmpty, used > 2 * pad + Int(size) else { return nil }
        let image = ImageSurface(width: min(used, shape.maxWidth), height: height)
        image.withContext { cr in
            fill(cr, width: image.width, height: height, radius: size * 0.4, panel: panel)
            var x = pad
            for index in laid.indices where chosen.contains(index) {
                let layout = laid[index].1.fitting(width: image.width - pad - x)
                layout.draw(cr, x: Double(x), y: Double((height - layout.height) / 2), color: RGBA(text))
                x += layout.width + gap
            }
        }
        return image
    }

    /// The ticker's shape in a high, narrow room: its segments by rank, each wrapped to the room's
    /// width over as many lines as are left (the last one ellipsized), stacked in their order.
    private static func drawWrapped(_ lines: [Line], shape: Shape, fonts: Fonts, size: Double, engine: TextEngine,
                                    panel: RGBColor, text: RGBColor) -> ImageSurface? {
        let pad = max(2, Int((size * 0.35).rounded()))
        let lineHeight = Int((size * 1.35).rounded())
        let room = shape.maxWidth - 2 * pad
        guard room > Int(size) else { return nil }
        var left = shape.maxHeight - 2 * pad
        var chosen: [Int: TextLayout] = [:]
        for index in lines.indices.sorted(by: { lines[$0].rank < lines[$1].rank }) {
            let lineText = lines[index].inline ?? lines[index].left + (lines[index].right.map { "  " + $0 } ?? "")
            var maxLines = left / lineHeight
            while maxLines > 0 {
                let layout = engine.layout(lineText, font: fonts.of(lines[index]), width: room, maxLines: maxLines,
                                           singleParagraph: true)
                if layout.height <= left {
                    chosen[index] = layout
                    left -= layout.height
                    break
                }
                maxLines -= 1
            }
            if maxLines == 0 { break }
        }
        guard !chosen.isEmpty else { return nil }
        let width = min(shape.maxWidth, (chosen.values.map(\.width).max() ?? 0) + 2 * pad)
        let height = chosen.values.reduce(2 * pad) { $0 + $1.height }
        let image = ImageSurface(width: width, height: height)
        image.withContext { cr in
            fill(cr, width: width, height: height, radius: size * 0.4, panel: panel)
            var y = pad
            for index in lines.indices {
                guard let layout = chosen[index] else { continue }
                layout.draw(cr, x: Double(pad), y: Double(y), color: RGBA(text))
                y += layout.height
            }
        }
        return image
    }

    /// The opaque panel: the text's contrast is measured against exactly this colour.
    private static func fill(_ cr: OpaquePointer, width: Int, height: Int, radius: Double, panel: RGBColor) {
        Icons.roundedRect(cr, 0, 0, Double(width), Double(height), min(radius, Double(height) / 2))
        RGBA(panel).setSource(cr)
        cairo_fill(cr)
    }
}
